import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';

type Options = NonNullable<ParseArgsConfig['options']>;

/** `--catalog FILE`, repeatable: the catalog files every catalog command reads. */
export const CATALOG_OPTION = { catalog: { type: 'string', multiple: true } } as const;
/** `--json`: machine-readable output. */
export const JSON_OPTION = { json: { type: 'boolean', default: false } } as const;

/**
 * An option the command does not have, with the nearest one it does when the spelling is close.
 * The CLI prints the command's usage after it.
 */
export class UnknownOptionError extends CliError {
  constructor(
    readonly option: string,
    readonly suggestion: string | undefined,
    options?: { cause?: unknown },
  ) {
    super(`unknown option '${option}'${suggestion === undefined ? '.' : `; did you mean ${suggestion}?`}`, options);
    this.name = 'UnknownOptionError';
  }
}

/**
 * Parses a command's arguments strictly, with positionals allowed. An unknown option is an
 * `UnknownOptionError` naming the nearest valid option.
 */
export function parseCommandArgs<O extends Options>(args: string[], options: O) {
  try {
    return parseArgs({ args, allowPositionals: true, strict: true, options });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw error;
    const option = unknownOption(args, options);
    if (option === undefined) throw error;
    throw new UnknownOptionError(option, nearestOption(option, options), { cause: error });
  }
}

/**
 * The first option in `args` the command does not have, as typed (`--catalgo`, `-z`). Node's error
 * names it only inside its message text, so the arguments are tokenised again, leniently, instead.
 */
export function unknownOption(args: readonly string[], options: Options): string | undefined {
  const { tokens } = parseArgs({ args: [...args], allowPositionals: true, strict: false, tokens: true, options });
  for (const token of tokens) if (token.kind === 'option' && !Object.hasOwn(options, token.name)) return token.rawName;
  return undefined;
}

/**
 * The command's long option nearest to `typed` (`--catalog` for `--catalgo`), or undefined when
 * none is close: at most one edit per three letters of the longer name (a swap of neighbours counts
 * as one).
 */
export function nearestOption(typed: string, options: Options): string | undefined {
  // A single dash is a short option: one letter says too little to guess a long name from.
  if (!typed.startsWith('--')) return undefined;
  const name = typed.slice(2).toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of Object.keys(options)) {
    const distance = editDistance(name, candidate.toLowerCase());
    const allowed = Math.max(1, Math.floor(Math.max(name.length, candidate.length) / 3));
    if (distance <= allowed && (best === undefined || distance < best.distance)) best = { name: candidate, distance };
  }
  return best === undefined ? undefined : `--${best.name}`;
}

/** Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i += 1) {
    const row = rows[i] as number[];
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(at(i, j), at(i - 2, j - 2) + 1);
    }
  }
  return at(a.length, b.length);
}

/**
 * A whole-number option within [min, max], or undefined when it was not given. A bad value is a
 * usage error naming the option and its range.
 */
export function intOption(value: string | undefined, name: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < min || parsed > max)
    throw new CliError(`${name} is a whole number, ${min}–${max}.`);
  return parsed;
}
