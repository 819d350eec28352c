/** A failed read's reason in words, not the system's code (EISDIR: a folder named where a file is wanted). */
export function readErrorText(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === "ENOENT") return "no such file";
  if (code === "EISDIR") return "a folder, not a file";
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  return code ?? (err as Error).message;
}

/** What a command refuses or fails with, and the exit code it ends with (2: bad arguments, ...). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
