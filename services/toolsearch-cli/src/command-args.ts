import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error';

/** `--catalog FILE`, repeatable: the catalog files every catalog command reads. */
export const CATALOG_OPTION = { catalog: { type: 'string', multiple: true } } as const;
/** `--json`: machine-readable output. */
export const JSON_OPTION = { json: { type: 'boolean', default: false } } as const;

/**
 * Parses a command's arguments strictly (an unknown option is an error the CLI reports with the
 * command's usage), with positionals allowed.
 */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  return parseArgs({ args, allowPositionals: true, strict: true, options });
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
