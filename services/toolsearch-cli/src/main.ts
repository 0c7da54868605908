import { parseArgs } from 'node:util';
import { CliError } from './cli-error';
import type { Command } from './command';
import { UnknownOptionError } from './command-args';
import { processIo, type CliIo } from './io';
import { assembleCommand } from './commands/assemble.command';
import { benchCommand } from './commands/bench.command';
import { cardCommand } from './commands/card.command';
import { lintCommand } from './commands/lint.command';
import { describeCommand } from './commands/describe.command';
import { evalCommand } from './commands/eval.command';
import { searchCommand } from './commands/search.command';
import { sessionsCommand } from './commands/sessions.command';
import { toolsetsCommand } from './commands/toolsets.command';
import { tiersCommand } from './commands/tiers.command';
import { approvalsCommand } from './commands/approvals.command';
import { activityCommand } from './commands/activity.command';
import { credentialsCommand } from './commands/credentials.command';
import { tenantsCommand } from './commands/tenants.command';

const COMMANDS: Record<string, Command> = {
  assemble: assembleCommand,
  search: searchCommand,
  describe: describeCommand,
  eval: evalCommand,
  bench: benchCommand,
  card: cardCommand,
  lint: lintCommand,
  sessions: sessionsCommand,
  tenants: tenantsCommand,
  toolsets: toolsetsCommand,
  tiers: tiersCommand,
  approvals: approvalsCommand,
  activity: activityCommand,
  credentials: credentialsCommand,
};

function help(): string {
  const rows = Object.entries(COMMANDS).map(([name, command]) => `  ${name.padEnd(11)} ${command.summary}`);
  return [
    'toolsearch: tool search for LLM agent sessions.',
    '',
    'Usage: toolsearch <command> [options]',
    '',
    'Commands:',
    ...rows,
    '',
    "Run 'toolsearch <command> --help' for a command's options.",
    '',
  ].join('\n');
}

/** Runs the CLI with `argv` (without node and the script) and returns the process exit code. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name === undefined ? 2 : 0;
  }
  const command = COMMANDS[name];
  if (command === undefined) {
    io.err(`toolsearch: unknown command '${name}'.\n\n${help()}`);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`${command.usage}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof CliError) {
      const pointer = error instanceof UnknownOptionError ? `Run 'toolsearch ${name} --help' for its options.\n` : '';
      io.err(`toolsearch ${name}: ${error.message}\n${pointer}`);
      return error.exitCode;
    }
    // node:util parseArgs reports unknown options and missing values with these codes.
    const code = (error as { code?: string }).code;
    if (typeof code === 'string' && code.startsWith('ERR_PARSE_ARGS')) {
      io.err(`toolsearch ${name}: ${(error as Error).message}\n\n${command.usage}\n`);
      return 2;
    }
    throw error;
  }
}

export { parseArgs };
