import { readFileSync } from 'node:fs';
import { CliError } from './cli-error';

/** One query of an evaluation file, with its gold as groups of acceptable `server::name` ids. */
export interface EvalQuery {
  readonly query: string;
  readonly gold: readonly (readonly string[])[];
}

/**
 * Reads a query file in the shared-data format: `query` plus `gold_ids`, either a list of
 * `server::name` ids (each one gold tool) or a map from a gold name to the ids that count for it.
 * A query with no gold is an abstention case.
 */
export function loadQueries(path: string): EvalQuery[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read queries ${path}: ${(error as Error).message}`, { cause: error });
  }
  const queries: EvalQuery[] = [];
  text.split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      throw new CliError(`${path}:${index + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (typeof record !== 'object' || record === null || typeof (record as { query?: unknown }).query !== 'string') {
      throw new CliError(`${path}:${index + 1}: query must be a string`);
    }
    const { query, gold_ids: goldIds } = record as { query: string; gold_ids?: unknown };
    let gold: string[][] = [];
    if (Array.isArray(goldIds)) gold = [...new Set(goldIds.map(String))].map((id) => [id]);
    else if (typeof goldIds === 'object' && goldIds !== null) {
      gold = Object.values(goldIds).map((ids) => (Array.isArray(ids) ? ids.map(String) : []));
    } else if (goldIds !== undefined && goldIds !== null) {
      throw new CliError(`${path}:${index + 1}: gold_ids must be a list of ids or a map of name to ids`);
    }
    queries.push({ query, gold });
  });
  return queries;
}
