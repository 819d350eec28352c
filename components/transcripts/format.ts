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
