/**
 * Every ranking the engine gives, as text, to prove a speed change ranks alike: for each query of
 * every evaluation set (the public sets on their own catalogs and on the 6,685-tool union, and the
 * project's own sets) the answer at limits 5 and 10 (hits or withheld `nearest`, as catalog ids)
 * with scores, and its confidence. `SRC` loads another copy of `libs/search/src` (e.g. `git archive main`).
 *
 *   nice -n 19 npx tsx libs/search/bench/rankings-dump.ts > after.txt
 *   SRC=/tmp/before/libs/search/src nice -n 19 npx tsx libs/search/bench/rankings-dump.ts > before.txt
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SearchDocument } from '../src/search-document';
import type { SearchAnswer } from '../src/search-types';
import { EVAL_SETS, loadEvalSet, UNION } from '../scripts/eval-data';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.env['TOOLSEARCH_DATA_DIR'] ?? resolve(here, '../../../../shared/data'));
const src = resolve(process.env['SRC'] ?? resolve(here, '../src'));
const { SearchEngine } = (await import(resolve(src, 'search-engine.ts'))) as {
  SearchEngine: new (documents: readonly SearchDocument[]) => { answer(query: string, limit: number): SearchAnswer };
};

const sets = [
  ...EVAL_SETS,
  ...EVAL_SETS.filter((set) => set.own !== true).map((set) => ({
    ...set,
    name: `${set.name} (union)`,
    catalogs: UNION,
  })),
];
for (const set of sets) {
  const { documents, ids, queries } = loadEvalSet(dataDir, set);
  const engine = new SearchEngine(documents);
  queries.forEach(({ query }, at) => {
    for (const limit of [5, 10]) {
      const { hits, nearest, confidence } = engine.answer(query, limit);
      const list = (from: readonly { index: number; reason: string; score: number }[]) =>
        from.map((hit) => `${ids[hit.index] ?? '?'}(${hit.reason} ${hit.score})`).join(' ');
      console.log(`${set.name}\t${at}\t${limit}\t${confidence}\t${list(hits)}\t${list(nearest)}`);
    }
  });
}
