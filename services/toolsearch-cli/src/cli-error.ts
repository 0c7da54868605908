/** A usage or input problem the user can fix; the CLI prints the message and exits with code 2. */
export class CliError extends Error {
  readonly exitCode: number = 2;
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CliError';
  }
}
