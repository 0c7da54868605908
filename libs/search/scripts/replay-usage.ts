/**
 * Replay of learning from use on the public query sets: for each gold tool, half of the queries
 * that need it (alternately, in file order) are fed as observed calls — "after searching this,
 * the session called that tool" — and recall is measured on the other half, before and after the
 * boosts. A query is observed or evaluated, never both. `npx tsx libs/search/scripts/replay-usage.ts`.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../src/eval-metrics';
import type { EvalQuery } from '../src/query-file';
import { SearchEngine } from '../src/search-engine';
import { applyUsageBoosts, DEFAULT_USAGE_BOOSTS, UsageBoosts } from '../src/usage-boosts';
import { EVAL_SETS, loadEvalSet } from './eval-data';

const weight = Number(process.env['USAGE_WEIGHT'] ?? DEFAULT_USAGE_BOOSTS.weight);
const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.argv[2] ?? resolve(here, '../../../../shared/data'));

/** Splits queries so that each gold tool's queries alternate between observed and evaluated. */
function replaySplit(queries: readonly EvalQuery[]): { observed: EvalQuery[]; evaluated: EvalQuery[] } {
  const seen = new Map<string, number>();
  const observed: EvalQuery[] = [];
  const evaluated: EvalQuery[] = [];
  for (const query of queries) {
    // The query goes where its first gold tool's alternation puts it; its other gold tools follow.
    const key = query.gold[0]?.[0] ?? '';
    const count = seen.get(key) ?? 0;
    seen.set(key, count + 1);
    (count % 2 === 0 ? observed : evaluated).push(query);
  }
  return { observed, evaluated };
}

for (const set of EVAL_SETS.filter((candidate) => candidate.own !== true)) {
  const { documents, ids, queries } = loadEvalSet(dataDir, set);
  const engine = new SearchEngine(documents);
  const nameOf = new Map(ids.map((id, index) => [id, documents[index]?.name ?? '']));
  const indexOf = new Map(documents.map((doc, index) => [doc.name, index]));
  const { observed, evaluated } = replaySplit(queries);
  const boosts = new UsageBoosts();
  const now = 0;
  for (const query of observed)
    for (const gold of query.gold) {
      const name = nameOf.get(gold[0] ?? '');
      if (name !== undefined) boosts.record(query.query, name, now);
    }
  const run = (boosted: boolean) =>
    evaluate(
      evaluated.map((query) => {
        const hits = engine.search(query.query, 20);
        const ranked = boosted
          ? applyUsageBoosts(hits, boosts.boosts(query.query, now), (name) => indexOf.get(name), 10, weight)
          : hits.slice(0, 10);
        return { ranked: ranked.map((hit) => ids[hit.index] ?? ''), gold: query.gold };
      }),
      [5],
    );
  const before = run(false);
  const after = run(true);
  console.log(
    `${set.name}: ${observed.length} observed, ${evaluated.length} evaluated; R@5 ${before.recall['5']} → ${after.recall['5']}, hit@5 ${before.hit5} → ${after.hit5}`,
  );
}
