/** Where the CLI writes; tests pass their own to capture output. */
export interface CliIo {
  readonly out: (text: string) => void;
  readonly err: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether standard output is a terminal (progress bars, colours). */
  readonly isTty: boolean;
}

export const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  isTty: process.stdout.isTTY === true,
};
