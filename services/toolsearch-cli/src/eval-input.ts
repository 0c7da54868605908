import { readFileSync } from 'node:fs';
import { parseQueryFile, type EvalQuery } from '@toolsearch/search';
import { CliError } from './cli-error';

/** Reads a query file (JSON Lines with `query` and `gold_ids`); a bad file is a `CliError`. */
export function loadQueries(path: string): EvalQuery[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read queries ${path}: ${(error as Error).message}`, { cause: error });
  }
  const parsed = parseQueryFile(text);
  if (!parsed.ok) throw new CliError(`${path}:${parsed.line}: ${parsed.message}`);
  return parsed.queries;
}
