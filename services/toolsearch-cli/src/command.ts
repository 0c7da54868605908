import type { CliIo } from './io';

/**
 * One sub-command: its one-line purpose, usage text and handler (returns the exit code). Its own
 * module, so that the commands and main.ts, which lists them, both import it without a cycle.
 */
export interface Command {
  readonly summary: string;
  readonly usage: string;
  readonly run: (args: string[], io: CliIo) => Promise<number> | number;
}
