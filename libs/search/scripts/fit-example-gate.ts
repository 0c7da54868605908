/**
 * Chooses `EXAMPLES.abstain` (`src/example-requests.ts`): below which confidence, and under which
 * best example score (or which wider score while the best example says under which share of the
 * request), an answer at least how many of whose judged tools have example requests is withheld; and
 * `EXAMPLES.rescue`: from which example score and share an answer the lexical confidence or the
 * context check withholds is given after all (when that example's tool is among its first five). Reads
 * tuning material only — the tuning parts of LiveMCPBench and of the project's own sets, and the
 * held-out sets that have been read (`fresh` to `fresh16`, whole; `eval/README.md`) — and prints
 * the frozen test parts beside the choice, which they do not steer. StableToolBench's tools have no
 * examples: the gate never applies there.
 *
 * The rules: for the gate, the most no-capability requests withheld, with at most 1 % of all the
 * tuning hits withheld and at most one of any single set (ties go to the narrower gate); for the
 * rescue, the most withheld hits given back with at most 1 % of the tuning no-capability requests
 * answered and at most one of any set. Prints the grids; writes nothing (the constants are set by
 * hand from them).
 *
 *   npx tsx libs/search/scripts/fit-example-gate.ts [data dir]
 */
import { analyzeQuery } from '../src/analyzer';
import { gateCase, gateWithholds, nothingFits, type ExampleGate, type GateCase } from '../src/example-gate';
import { EXAMPLES, type ExampleVoteList } from '../src/example-requests';
import type { EvalQuery } from '../src/query-file';
import { MAX_QUERY_CHARS } from '../src/query-terms';
import { splitQueries } from '../src/query-split';
import { DEFAULT_RANKING } from '../src/ranking-options';
import { SearchEngine } from '../src/search-engine';
import { EVAL_SETS, HELD_OUT_SETS, LMB_NEGATIVES, loadEvalSet } from './eval-data';
import { publicDataDir } from './public-catalogs';

/** One request's answer as the gate sees it (`GateCase`), and what it would be worth. */
interface Sample extends GateCase {
  readonly set: string;
  readonly part: 'tuning' | 'test';
  readonly answerable: boolean;
  /** A gold tool among the first five the answer would give without the gate. */
  readonly hit: boolean;
}

const dataDir = publicDataDir();
const READ_SETS = /^fresh([2-9]|1[0-8])? /;
const sets = [
  ...EVAL_SETS.filter((set) => set.name !== 'StableToolBench'),
  LMB_NEGATIVES,
  ...HELD_OUT_SETS.filter((set) => READ_SETS.test(set.name)),
];
const samples: Sample[] = [];
/**
 * An answer the lexical confidence or the context check withholds: whether it would be a hit if
 * given, the first five tools it would give, and the votes that could vouch for one of them.
 */
interface Withheld {
  readonly set: string;
  readonly part: Sample['part'];
  readonly answerable: boolean;
  readonly hit: boolean;
  readonly first: readonly number[];
  readonly votes: ExampleVoteList;
}
const rescues: Withheld[] = [];
const engines = new Map<string, SearchEngine>();
const openEngines = new Map<string, SearchEngine>();
/** Tuning no-capability requests, answered or not. */
let negativeCount = 0;
for (const set of sets) {
  const { documents, ids, queries } = loadEvalSet(dataDir, set);
  const key = set.catalogs.join(',');
  let engine = engines.get(key);
  if (engine === undefined) engines.set(key, (engine = new SearchEngine(documents, DEFAULT_RANKING)));
  let open = openEngines.get(key);
  if (open === undefined)
    openEngines.set(key, (open = new SearchEngine(documents, { ...DEFAULT_RANKING, abstain: false })));
  const examples = engine.learned?.examples;
  if (examples === undefined) continue;
  const parts: [string, EvalQuery[]][] = READ_SETS.test(set.name)
    ? [['tuning', queries]]
    : Object.entries(splitQueries(queries));
  for (const [part, list] of parts)
    for (const query of list) {
      if (part === 'tuning' && query.gold.length === 0) negativeCount += 1;
      // At limit 10 (limits 5 and 10 rank and judge alike): "nothing fits" reads the first ten.
      const answer = engine.answer(query.query, 10);
      const gold = new Set(query.gold.flat());
      const votes = examples.votes(analyzeQuery(query.query.slice(0, MAX_QUERY_CHARS)));
      // Withheld by the lexical confidence or the context check (given back, or not, by the rescue):
      // what it would have been is the answer of an engine that never abstains.
      if (
        answer.rescued === true ||
        (answer.hits.length === 0 && answer.exampleScore === undefined && answer.nearest.length > 0)
      ) {
        const would = open.answer(query.query, 5).hits;
        rescues.push({
          set: set.name,
          part: part as Sample['part'],
          answerable: gold.size > 0,
          hit: would.some((hit) => gold.has(ids[hit.index] ?? '')),
          first: would.map((hit) => hit.index),
          votes,
        });
      }
      // A withheld answer's `nearest` is what it would have given; one withheld by the gate says so.
      const given = answer.hits.length > 0 ? answer.hits : answer.exampleScore !== undefined ? answer.nearest : [];
      if (given.length === 0) continue;
      samples.push({
        ...gateCase(examples, given, votes, answer.confidence, {
          index: engine.index,
          terms: analyzeQuery(query.query.slice(0, MAX_QUERY_CHARS)),
        }),
        set: set.name,
        part: part as Sample['part'],
        answerable: gold.size > 0,
        hit: given.slice(0, 5).some((hit) => gold.has(ids[hit.index] ?? '')),
      });
    }
}

const tuning = samples.filter((sample) => sample.part === 'tuning');
const hits = tuning.filter((sample) => sample.answerable && sample.hit);
const negatives = tuning.filter((sample) => !sample.answerable);
const budget = Math.floor(hits.length * 0.01);
let best: (ExampleGate & { emptied: number; lost: number }) | undefined;
/** The best gate for each `known`, for the record (how much tolerating unknown tools buys). */
const bestByKnown = new Map<number, ExampleGate & { emptied: number; lost: number }>();
console.log(
  `tuning: ${hits.length} hits, ${negatives.length} no-capability requests answered; at most ${budget} hits withheld`,
);
const gates: ExampleGate[] = [];
// Narrower first (all judged tools known, then four, then three), so that ties go to the narrower.
for (const known of [5, 4, 3])
  for (const below of [0.3, 0.5, 0.7, 0.9, 1.01])
    for (let score = 8; score <= 16; score += 0.5) {
      gates.push({ below, score, wide: score, share: 0, known });
      for (let wide = Math.floor(score) + 1; wide <= 20; wide += 1)
        for (const share of [0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]) gates.push({ below, score, wide, share, known });
    }
for (const gate of gates) {
  const lost = hits.filter((sample) => gateWithholds(sample, gate));
  const perSet = new Map<string, number>();
  for (const sample of lost) perSet.set(sample.set, (perSet.get(sample.set) ?? 0) + 1);
  const emptied = negatives.filter((sample) => gateWithholds(sample, gate)).length;
  const allowed = lost.length <= budget && [...perSet.values()].every((count) => count <= 1);
  if (gate.share === 0 && gate.score % 1 === 0)
    console.log(
      `known ${gate.known} below ${gate.below} score ${gate.score}: ${emptied} emptied, ${lost.length} hits withheld ${JSON.stringify(Object.fromEntries(perSet))}${allowed ? '' : ' (over)'}`,
    );
  const held = bestByKnown.get(gate.known);
  if (
    allowed &&
    (held === undefined || emptied > held.emptied || (emptied === held.emptied && lost.length < held.lost))
  )
    bestByKnown.set(gate.known, { ...gate, emptied, lost: lost.length });
  // Ties go to the gate listed first: the narrower one.
  if (
    allowed &&
    (best === undefined || emptied > best.emptied || (emptied === best.emptied && lost.length < best.lost))
  )
    best = { ...gate, emptied, lost: lost.length };
}
for (const [known, gate] of bestByKnown) console.log(`best with known ${known}:`, JSON.stringify(gate));
console.log('chosen:', best, 'in the code now:', EXAMPLES.abstain);
// The frozen test parts, for the record (they choose nothing).
const inCode: ExampleGate = EXAMPLES.abstain;
for (const set of new Set(samples.filter((sample) => sample.part === 'test').map((sample) => sample.set))) {
  const test = samples.filter((sample) => sample.set === set && sample.part === 'test');
  console.log(
    `frozen ${set}: ${test.filter((sample) => sample.answerable && sample.hit && gateWithholds(sample, inCode)).length} hits withheld, ${test.filter((sample) => !sample.answerable && gateWithholds(sample, inCode)).length} no-capability requests emptied by the gate`,
  );
}

// Nothing fits (`EXAMPLES.nothing`): the lowest score — the most no-capability requests withheld
// that the gate in the code does not withhold — that withholds no tuning hit the gate gives (ties go
// to the higher score). Stricter than the gate's budget: the requests no tool serves were written
// about the services their writers thought of, and a rule that trades hits for abstentions on them
// would trade worse on requests about others.
let nothing: { score: number; over: number; emptied: number; lost: number } | undefined;
// `over` is set by hand (near-ties go to the answer); the grid shows what others would do.
for (const over of [EXAMPLES.nothing.over, 1, 1.25, 1.5])
  for (let score = 30; score >= 6; score -= 1) {
    const withheld = (sample: Sample) => nothingFits(sample, score, over) && !gateWithholds(sample, inCode);
    const lost = hits.filter(withheld);
    const perSet = new Map<string, number>();
    for (const sample of lost) perSet.set(sample.set, (perSet.get(sample.set) ?? 0) + 1);
    const emptied = negatives.filter(withheld).length;
    const allowed = lost.length === 0;
    console.log(
      `nothing at ${score}, over ${over}: ${emptied} more emptied than by the gate, ${lost.length} more hits withheld ${JSON.stringify(Object.fromEntries(perSet))}${allowed ? '' : ' (over)'}`,
    );
    if (allowed && over === EXAMPLES.nothing.over && (nothing === undefined || emptied > nothing.emptied))
      nothing = { score, over, emptied, lost: lost.length };
  }
console.log('chosen:', nothing, 'in the code now:', EXAMPLES.nothing);
for (const set of new Set(samples.filter((sample) => sample.part === 'test').map((sample) => sample.set))) {
  const test = samples.filter((sample) => sample.set === set && sample.part === 'test');
  console.log(
    `frozen ${set}: ${test.filter((sample) => sample.answerable && sample.hit && nothingFits(sample)).length} hits withheld, ${test.filter((sample) => !sample.answerable && nothingFits(sample)).length} no-capability requests emptied by nothing fits`,
  );
}

// The rescue (`EXAMPLES.rescue`): the lowest score and share — the most withheld hits given back —
// at which at most 1 % of the tuning no-capability requests are given an answer, and at most one of
// any set; ties go to the narrower rescue (higher score, then higher share).
const rescuable = rescues.filter((sample) => sample.part === 'tuning');
const refillBudget = Math.floor(negativeCount * 0.01);
const vouched = (sample: Withheld, score: number, share: number) =>
  sample.votes.some((vote) => vote.score >= score && vote.share >= share && sample.first.includes(vote.index));
console.log(
  `rescue: ${rescuable.filter((sample) => sample.answerable && sample.hit).length} withheld tuning hits, ${negativeCount} tuning no-capability requests; at most ${refillBudget} given`,
);
let rescue: { score: number; share: number; given: number; refilled: number } | undefined;
for (let score = 40; score >= 12; score -= 1)
  for (const share of [0.3, 0.25, 0.2, 0.15, 0.1, 0]) {
    const given = rescuable.filter((sample) => sample.answerable && sample.hit && vouched(sample, score, share)).length;
    const refilled = rescuable.filter((sample) => !sample.answerable && vouched(sample, score, share));
    const perSet = new Map<string, number>();
    for (const sample of refilled) perSet.set(sample.set, (perSet.get(sample.set) ?? 0) + 1);
    const allowed = refilled.length <= refillBudget && [...perSet.values()].every((count) => count <= 1);
    if (share === 0)
      console.log(
        `rescue at ${score}: ${given} hits given back, ${refilled.length} no-capability requests given ${JSON.stringify(Object.fromEntries(perSet))}${allowed ? '' : ' (over)'}`,
      );
    if (allowed && (rescue === undefined || given > rescue.given))
      rescue = { score, share, given, refilled: refilled.length };
  }
console.log('chosen:', rescue, 'in the code now:', EXAMPLES.rescue);
