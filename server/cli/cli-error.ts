/** What a command refuses or fails with, and the exit code it ends with (2: bad arguments, ...). */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
