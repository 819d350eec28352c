"use client";
/**
 * The left column of a tab that watches a tapped conversation: the editor
 * drives it, so instead of the start and compose controls it says so, names
 * the agent, and offers injection, off until the user turns it on for this tab
 * (then the raw composer appears and what it sends is marked injected). On a
 * team server another person's tap is not this page's to watch or steer: the
 * relay says so (not_owner), and the injection toggle is off with the reason.
 */
import { tapRefusal } from "@/lib/contracts/tap-wire";
import { Composer } from "./Composer";
import { StderrPane } from "./StderrPane";
import { TabBar } from "./TabBar";
import { getTapsStore } from "./state/taps-store";
import { useSession, useTabState } from "./state/use-session";
import { useTaps } from "./state/use-taps";
import { ViewPane } from "./ViewPane";

/** A tapped tab: the same views (Session, Frames, stderr), the tap's column instead of the controls. */
export function TappedWorkspace({ tapId }: { tapId: string }) {
  return (
    <>
      <TabBar />
      <div className="flex min-h-0 flex-1" data-testid="tab-panel">
        <aside className="flex w-[28rem] shrink-0 flex-col border-r border-zinc-800">
          <div className="min-h-0 flex-1 overflow-y-auto">
            <TapPanel tapId={tapId} />
          </div>
          <StderrPane />
        </aside>
        <main className="flex min-w-0 flex-1 flex-col">
          <ViewPane />
        </main>
      </div>
    </>
  );
}

export function TapPanel({ tapId }: { tapId: string }) {
  const clientId = useSession((s) => s.clientId);
  const agent = useSession((s) => s.agent);
  const { taps, injecting, error, me } = useTaps();
  // The relay refused this tab the tap (another person's): it sent nothing of it, only why.
  const notOwner = useSession((s) => (s.agentError?.code === "not_owner" ? s.agentError.message : undefined));
  const [draft, setDraft] = useTabState("draft", "");
  const tap = taps.find((t) => t.id === tapId);
  const refused = notOwner ?? (tap && me ? tapRefusal(me, tap.owner, "inject") : undefined);
  const injection = clientId !== undefined && injecting.has(clientId) && !refused;
  const info = tap?.agent ?? (agent.state === "running" || agent.state === "exited" ? agent.agent : null);
  return (
    <div data-testid="tap-panel" className="border-b border-zinc-800 text-xs">
      <div className="space-y-1 p-3">
        <p className="font-medium text-violet-200">
          <span className="mr-2 rounded bg-violet-900/60 px-1.5 py-0.5 text-[10px] uppercase tracking-wide">
            tapped
          </span>
          An editor drives this conversation; you are watching it.
        </p>
        {info ? (
          <p className="break-all text-zinc-400" data-testid="tap-agent">
            {info.profile} · pid {info.pid} · {[info.command, ...info.args].join(" ")} · cwd {info.cwd}
          </p>
        ) : null}
        <p className="text-zinc-500">
          {notOwner
            ? "This tap is not yours to watch."
            : tap
              ? tap.exited
                ? "The agent has exited."
                : tap.connected
                  ? "The tap is connected."
                  : "The tap is away."
              : "This tap is gone; its transcript stays in the library."}
        </p>
        <label className="mt-2 flex items-center gap-2 text-zinc-300">
          <input
            type="checkbox"
            data-testid="tap-injection"
            checked={injection}
            disabled={!tap || tap.exited || clientId === undefined || refused !== undefined}
            title={refused}
            onChange={(e) => void getTapsStore().setInjection(clientId!, e.target.checked)}
          />
          Inject frames from this tab (the agent answers the editor too; marked injected)
        </label>
        {refused ? (
          <p className="text-amber-300" data-testid="tap-refused">
            {refused}
          </p>
        ) : null}
        {error ? <p className="text-red-300">{error}</p> : null}
      </div>
      {injection ? <Composer draft={draft} onDraftChange={setDraft} /> : null}
    </div>
  );
}
