/** Formatters for the transcript pages. */

const two = (n: number) => String(n).padStart(2, "0");

/** "2026-11-22 03:35:12" in local time; the ISO text when it does not parse. */
export function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`;
}

export const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString("en")} ${n === 1 ? one : many}`;

/**
 * The agent column: its `agentInfo` name; "starting…" only before the agent said
 * anything (an agent that never names itself must not look as if it is still starting).
 */
export function agentLabel(t: { agentName?: string; recording: boolean; frames: number }): string {
  if (t.agentName) return t.agentName;
  return t.recording && t.frames === 0 ? "starting…" : "—";
}

/** A duration for people: "0.4 ms", "112 ms", "4.2 s", "1.9 min", "2.3 h" (never "112214.6 ms"). */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined || !Number.isFinite(ms)) return "—";
  const sig = (n: number) => (n < 10 ? n.toFixed(1) : Math.round(n).toString());
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1) : Math.round(ms)} ms`;
  if (ms < 60_000) return `${sig(ms / 1000)} s`;
  if (ms < 3_600_000) return `${sig(ms / 60_000)} min`;
  return `${sig(ms / 3_600_000)} h`;
}
