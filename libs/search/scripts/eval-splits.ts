/**
 * One table for tuning: R@5 / hit@5 on the tuning and frozen test parts of both distributed query
 * sets and the project's own answerable requests, abstention on its no-capability requests (both
 * on the 6,685-tool union), with the learned expansion on and off; and the sets held out whole
 * (`HELD_OUT_SETS`: every query is test). `npx tsx libs/search/scripts/eval-splits.ts [data dir]`.
 */
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { evaluate } from '../src/eval-metrics';
import type { EvalQuery } from '../src/query-file';
import { splitQueries } from '../src/query-split';
import { DEFAULT_RANKING, type RankingOptions } from '../src/ranking-options';
import { SearchEngine } from '../src/search-engine';
import { EVAL_SETS, HELD_OUT_SETS, loadEvalSet } from './eval-data';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.argv[2] ?? resolve(here, '../../../../shared/data'));

const variants: Record<string, Partial<RankingOptions>> = {
  before: {
    expand: false,
    correctTypos: false,
    weighTerms: false,
    abstain: false,
    translate: false,
    hintValues: false,
    relate: false,
    encode: false,
    examples: false,
  },
  'no encoder': { encode: false },
  'no examples': { examples: false },
  'no related': { relate: false },
  'no value hints': { hintValues: false },
  'no abstain': { abstain: false },
  'weights only': { expand: false },
  'expansion only': { weighTerms: false },
  'no typos': { correctTypos: false },
  'no translate': { translate: false },
  current: {},
};
// Tuning aid: `SCALES=0.3,0.6` adds a variant per association scale.
for (const scale of (process.env['SCALES'] ?? '').split(',').filter(Boolean))
  variants[`scale ${scale}`] = { expansionScale: Number(scale) };
// `RELATED_SCALES=0.5,2` adds a variant per related-word scale.
for (const scale of (process.env['RELATED_SCALES'] ?? '').split(',').filter(Boolean))
  variants[`related ${scale}`] = { relatedScale: Number(scale) };
// `VARIANTS=current,no abstain` runs only those.
const only = process.env['VARIANTS']?.split(',');
const cell = (part: string, engine: SearchEngine, ids: string[], queries: EvalQuery[]) => {
  const report = evaluate(
    queries.map((q) => ({ ranked: engine.search(q.query, 10).map((h) => ids[h.index] ?? ''), gold: q.gold })),
    [5],
  );
  return report.abstain_accuracy !== null
    ? `${part} abstain ${report.abstain_accuracy.toFixed(3)} (${report.abstain_queries})`
    : `${part} R@5 ${(report.recall['5'] ?? 0).toFixed(3)} hit@5 ${report.hit5.toFixed(3)} (${report.queries})`;
};
// `HELD_OUT=skip` leaves the held-out sets out: while tuning, they stay unseen.
const heldOutSets = process.env['HELD_OUT'] === 'skip' ? [] : HELD_OUT_SETS;
for (const set of [...EVAL_SETS, ...heldOutSets]) {
  const { documents, ids, queries } = loadEvalSet(dataDir, set);
  const heldOut = HELD_OUT_SETS.includes(set);
  const parts = splitQueries(queries);
  for (const [variant, overrides] of Object.entries(variants)) {
    if (only !== undefined && !only.includes(variant)) continue;
    const engine = new SearchEngine(documents, { ...DEFAULT_RANKING, ...overrides });
    const cells = heldOut
      ? [cell('held out', engine, ids, queries)]
      : (['tuning', 'test'] as const).map((part) => cell(part, engine, ids, parts[part]));
    console.log(`${set.name.padEnd(20)} ${variant.padEnd(14)} ${cells.join('   ')}`);
  }
}
