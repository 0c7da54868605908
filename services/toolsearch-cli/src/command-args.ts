import { parseArgs, type ParseArgsConfig } from 'node:util';

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
