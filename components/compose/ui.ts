/** Class names shared by the playground's controls (strip, panels, dock), so they look alike. */
export const input =
  "w-full min-w-0 rounded border border-zinc-700 bg-zinc-900 px-2 py-1 text-xs text-zinc-100 placeholder:text-zinc-600 focus:border-sky-500 focus:outline-none disabled:opacity-50";
export const mono = `${input} font-mono`;
export const button =
  "rounded border border-zinc-700 bg-zinc-900 px-2 py-0.5 text-[11px] text-zinc-300 hover:border-sky-500 hover:text-sky-200 disabled:cursor-not-allowed disabled:opacity-40";
export const primary =
  "rounded bg-sky-600 px-3 py-1 text-xs font-medium text-white hover:bg-sky-500 disabled:cursor-not-allowed disabled:bg-zinc-800 disabled:text-zinc-500";
export const danger =
  "rounded bg-zinc-700 px-3 py-1 text-xs font-medium text-zinc-100 hover:bg-red-600 disabled:cursor-not-allowed disabled:bg-zinc-800 disabled:text-zinc-500";
export const sectionTitle = "text-xs font-semibold uppercase tracking-wider text-zinc-400";
export const alert = "break-words rounded bg-red-950/60 px-2 py-1 text-xs text-red-300";
export const warn = "break-words rounded bg-amber-950/50 px-2 py-1 text-xs text-amber-200";
