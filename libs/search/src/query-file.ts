/** One query of an evaluation file, with its gold as groups of acceptable `server::name` ids. */
export interface EvalQuery {
  readonly query: string;
  readonly gold: readonly (readonly string[])[];
}

export type QueryFileResult =
  | { readonly ok: true; readonly queries: EvalQuery[] }
  | { readonly ok: false; readonly line: number; readonly message: string };

/**
 * Parses a query file in the shared-data format: `query` plus `gold_ids`, either a list of
 * `server::name` ids (each one gold tool) or a map from a gold name to the ids that count for it.
 * A query without gold is an abstention case (nothing should be returned).
 */
export function parseQueryFile(text: string): QueryFileResult {
  const queries: EvalQuery[] = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.trim() === '') continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch (error) {
      return { ok: false, line: index + 1, message: `not valid JSON (${(error as Error).message})` };
    }
    if (typeof record !== 'object' || record === null || typeof (record as { query?: unknown }).query !== 'string') {
      return { ok: false, line: index + 1, message: 'query must be a string' };
    }
    const { query, gold_ids: goldIds } = record as { query: string; gold_ids?: unknown };
    let gold: string[][] = [];
    if (Array.isArray(goldIds)) gold = [...new Set(goldIds.map(String))].map((id) => [id]);
    else if (typeof goldIds === 'object' && goldIds !== null) {
      gold = Object.values(goldIds).map((ids) => (Array.isArray(ids) ? ids.map(String) : []));
    } else if (goldIds !== undefined && goldIds !== null) {
      return { ok: false, line: index + 1, message: 'gold_ids must be a list of ids or a map of name to ids' };
    }
    queries.push({ query, gold });
  }
  return { ok: true, queries };
}
