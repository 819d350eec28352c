"use client";
/** The agent methods to compose, each marked with whether the agent advertises it; grouped when the protocol groups them. */
import type { MethodSpec, Support } from "@/lib/features/compose/catalog";

export const CUSTOM = "custom";

const BADGE: Record<Support["state"], { mark: string; cls: string }> = {
  baseline: { mark: "", cls: "text-zinc-200" },
  advertised: { mark: "✓", cls: "text-emerald-300" },
  "not-advertised": { mark: "–", cls: "text-zinc-500" },
  unknown: { mark: "?", cls: "text-zinc-300" },
  unsupported: { mark: "✕", cls: "text-red-300 line-through decoration-red-400/60" },
};

interface Props {
  methods: readonly MethodSpec[];
  support: (method: string) => Support;
  chosen: string;
  onChoose: (method: string) => void;
}

export function MethodPicker({ methods, support, chosen, onChoose }: Props) {
  const item = (active: boolean) =>
    `flex items-center gap-1 truncate rounded border px-1.5 py-0.5 text-left font-mono text-[11px] ${
      active ? "border-sky-500 bg-sky-500/10" : "border-zinc-800 bg-zinc-900 hover:border-zinc-600"
    }`;
  const option = (m: MethodSpec) => {
    const s = support(m.method);
    const badge = BADGE[s.state];
    return (
      <button
        key={m.method}
        type="button"
        role="option"
        aria-selected={chosen === m.method}
        data-testid="compose-method"
        data-method={m.method}
        data-support={s.state}
        className={item(chosen === m.method)}
        title={`${m.method}${m.notification ? " (notification)" : ""}: ${s.reason}`}
        onClick={() => onChoose(m.method)}
      >
        <span className={`truncate ${badge.cls}`}>{m.method}</span>
        {m.unstable ? <span className="text-[10px] text-fuchsia-300">unstable</span> : null}
        {badge.mark ? <span className={`ml-auto ${badge.cls.split(" ")[0]}`}>{badge.mark}</span> : null}
      </button>
    );
  };
  const custom = (
    <button
      type="button"
      role="option"
      aria-selected={chosen === CUSTOM}
      data-testid="compose-method"
      data-method={CUSTOM}
      className={item(chosen === CUSTOM)}
      onClick={() => onChoose(CUSTOM)}
    >
      <span className="text-zinc-300">custom method…</span>
    </button>
  );
  const groups = groupsOf(methods);
  if (!groups)
    return (
      <div className="grid grid-cols-2 gap-1" role="listbox" aria-label="Agent methods">
        {methods.map(option)}
        {custom}
      </div>
    );
  return (
    <div className="flex max-h-80 flex-col gap-1 overflow-y-auto" role="listbox" aria-label="Agent methods">
      {groups.map(([group, list], i) => (
        <details
          key={group}
          data-testid="compose-group"
          data-group={group}
          // The first groups (the handshake, threads, turns) and the chosen method's are open.
          open={i < OPEN_GROUPS || list.some((m) => m.method === chosen)}
        >
          <summary className="cursor-pointer text-[11px] text-zinc-400">
            {group} <span className="text-zinc-600">({list.length})</span>
          </summary>
          <div className="mt-1 grid grid-cols-2 gap-1">{list.map(option)}</div>
        </details>
      ))}
      <div className="grid grid-cols-2 gap-1">{custom}</div>
    </div>
  );
}

/** Groups open at first: the handshake, thread/*, turn/*. */
const OPEN_GROUPS = 3;

/** The methods by group, in the order given; undefined when they are not grouped. */
function groupsOf(methods: readonly MethodSpec[]): [string, MethodSpec[]][] | undefined {
  if (!methods.some((m) => m.group !== undefined)) return undefined;
  const out = new Map<string, MethodSpec[]>();
  for (const m of methods) {
    const g = m.group ?? "";
    out.set(g, [...(out.get(g) ?? []), m]);
  }
  return [...out];
}

const LINE: Record<Support["state"], string> = {
  baseline: "text-zinc-500",
  advertised: "text-emerald-300",
  "not-advertised": "text-amber-300",
  unknown: "text-zinc-500",
  unsupported: "text-red-300",
};

/** Beside the form: does the agent advertise this method, or did it refuse it? */
export function SupportLine({ method, support }: { method: string; support: Support }) {
  const text =
    support.state === "advertised"
      ? `advertised: ${support.reason}`
      : support.state === "not-advertised"
        ? `not advertised: ${support.reason}`
        : support.state === "unsupported"
          ? support.reason
          : support.reason;
  return (
    <p
      data-testid="method-support"
      data-method={method}
      data-state={support.state}
      className={`text-[11px] ${LINE[support.state]}`}
    >
      {text}
    </p>
  );
}
