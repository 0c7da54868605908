/**
 * Learns the term table the search engine uses for query weighting and expansion, and writes it as
 * a committed build artefact (`src/generated/term-associations.ts`), from:
 *
 * 1. (request, gold tool) pairs of the *tuning* parts of the distributed query sets
 *    (`splitQueries`; the frozen test parts are never read here): the request words' weights.
 * 2. Tool-word co-occurrence across the public catalogs' tool texts (name + description), scored
 *    by normalised PMI: expansions of weak words.
 * 3. The synthetic requests of `training/` (`training-files.ts`: written for the union
 *    catalogs' tools; `training/README.md`): related words (`related-words.ts`).
 *
 * Run: `npx tsx libs/search/scripts/learn-associations.ts [data dir]` (default ../shared/data).
 * Deterministic: the same data gives the same bytes.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyze, analyzeQuery } from '../src/analyzer';
import { parseQueryFile } from '../src/query-file';
import { splitQueries } from '../src/query-split';
import { PARAMS, type Association } from './association-params';
import { cooccurrenceAssociations } from './cooccurrence';
import { learnRelated, type RequestPair } from './related-words';
import { readTrainingLines, RELATED_TRAINING_FILES } from './training-files';
import {
  PUBLIC_CATALOGS,
  publicDataDir,
  readJsonl as readPublicJsonl,
  toolText,
  type CatalogTool,
} from './public-catalogs';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = publicDataDir();
const out = resolve(here, '../src/generated/term-associations.ts');
const readJsonl = <T>(file: string): T[] => readPublicJsonl<T>(dataDir, file);
const CATALOGS = PUBLIC_CATALOGS;
/** Words the typo matcher must never "correct": every word of the catalogs and of the tuning requests. */
const knownWords = new Set<string>();
const noteKnown = (text: string) => {
  for (const term of analyze(text)) if (KNOWN_WORD.test(term)) knownWords.add(term);
};
const KNOWN_WORD = /^[a-z]{5,24}$/;

// 1. Request → gold-tool pairs from the tuning parts.
const requestPairs = new Map<string, Map<string, number>>(); // q → t → queries
const pairServers = new Map<string, Set<string>>(); // "q t" → servers of the gold tools
const requestCount = new Map<string, number>(); // q → queries containing q
const keptCount = new Map<string, number>(); // q → queries whose gold tools contain q itself
const pairSets: { file: string; catalog: string }[] = [
  { file: 'queries-stabletoolbench.jsonl', catalog: 'catalog-stabletoolbench.jsonl' },
  { file: 'queries-livemcpbench.jsonl', catalog: 'catalog-livemcpbench.jsonl' },
];
let pairQueries = 0;
for (const { file, catalog } of pairSets) {
  const byId = new Map(readJsonl<CatalogTool>(catalog).map((tool) => [`${tool.server}::${tool.name}`, tool]));
  const parsed = parseQueryFile(readFileSync(resolve(dataDir, file), 'utf8'));
  if (!parsed.ok) throw new Error(`${file}:${parsed.line}: ${parsed.message}`);
  for (const query of splitQueries(parsed.queries).tuning) {
    noteKnown(query.query);
    const requestTerms = new Set(analyzeQuery(query.query));
    const toolTerms = new Set<string>();
    const servers = new Set(query.gold.flat().map((id) => id.slice(0, id.indexOf('::'))));
    for (const ids of query.gold) {
      const tool = ids.map((id) => byId.get(id)).find((found) => found !== undefined);
      if (tool !== undefined) for (const term of analyze(toolText(tool))) toolTerms.add(term);
    }
    if (toolTerms.size === 0) continue;
    pairQueries += 1;
    for (const q of requestTerms) {
      requestCount.set(q, (requestCount.get(q) ?? 0) + 1);
      if (toolTerms.has(q)) keptCount.set(q, (keptCount.get(q) ?? 0) + 1);
      let row = requestPairs.get(q);
      if (row === undefined) requestPairs.set(q, (row = new Map()));
      for (const t of toolTerms) {
        if (t === q) continue;
        row.set(t, (row.get(t) ?? 0) + 1);
        const key = `${q} ${t}`;
        const seen = pairServers.get(key) ?? new Set<string>();
        for (const server of servers) seen.add(server);
        pairServers.set(key, seen);
      }
    }
  }
}

// Tool-term document frequency over the deduplicated catalog texts (for specificity and PMI).
const texts = new Set<string>();
for (const catalog of CATALOGS)
  for (const tool of readJsonl<CatalogTool>(catalog)) {
    texts.add(toolText(tool));
    noteKnown(`${toolText(tool)} ${JSON.stringify(tool.inputSchema ?? {})}`);
  }
const documents = [...texts].map((text) => [...new Set(analyze(text))].slice(0, PARAMS.cooccurrence.maxTermsPerDoc));
const df = new Map<string, number>();
for (const terms of documents) for (const term of terms) df.set(term, (df.get(term) ?? 0) + 1);

const table = new Map<string, Association[]>();
const offer = (from: string, to: string, weight: number) => {
  const row = table.get(from) ?? [];
  const existing = row.find((entry) => entry.term === to);
  if (existing !== undefined) existing.weight = Math.max(existing.weight, weight);
  else row.push({ term: to, weight });
  table.set(from, row);
};

const { request } = PARAMS;
// Request → tool associations raised the tuning parts and lowered StableToolBench's frozen part
// (BENCHMARKS.md, issue 21): they memorise services more than they learn language. Off by
// default; `ASSOC_SOURCES=request,cooccurrence` brings them back for a re-measurement. The pairs
// always feed the term weights below, which held on the frozen parts.
const sources = process.env['ASSOC_SOURCES'] ?? 'cooccurrence';
if (sources.includes('request'))
  for (const [q, row] of requestPairs) {
    const n = requestCount.get(q) ?? 0;
    if (n < request.minQueries) continue;
    for (const [t, together] of row) {
      const share = together / n;
      const spread = (df.get(t) ?? 0) / documents.length;
      if (together < request.minPairs || share < request.minShare || spread > request.maxToolShare) continue;
      // Seen with one service only, an association is that service's vocabulary, not the language's.
      if ((pairServers.get(`${q} ${t}`)?.size ?? 0) < request.minServers) continue;
      // Lift over how often the tool word appears in any tool: a common tool word is no signal.
      const lift = share / Math.max(spread, 1 / documents.length);
      if (lift < request.minLift) continue;
      offer(q, t, request.weight * share);
    }
  }
if (sources.includes('cooccurrence'))
  for (const { from, to, weight } of cooccurrenceAssociations(documents, df, PARAMS.cooccurrence))
    offer(from, to, weight);

// Related words from the synthetic (request, tool) pairs of `training/` (libs/search/training/README.md).
const related = new Map<string, { term: string; weight: number }[]>();
// `RELATED=off` leaves them out; `RELATED={"minShare":0.3}` overrides thresholds (for measuring).
const relatedOff = process.env['RELATED'] === 'off';
const relatedParams = {
  ...PARAMS.related,
  ...(relatedOff ? {} : (JSON.parse(process.env['RELATED'] ?? '{}') as object)),
} as typeof PARAMS.related;
const trainingFile = RELATED_TRAINING_FILES[0] as string;
if (!relatedOff && !existsSync(trainingFile)) console.warn(`no ${trainingFile}: the table has no related words`);
let syntheticPairs = 0;
/** `NECESSITY`: where the request words' weights come from (see the term necessity below). */
const mode = process.env['NECESSITY'] ?? 'tuning';
const syntheticCount = new Map<string, number>(); // q → synthetic requests containing q
const syntheticKept = new Map<string, number>(); // q → those whose tool contains q itself
if (existsSync(trainingFile) && !relatedOff) {
  const byId = new Map<string, CatalogTool>();
  for (const catalog of CATALOGS)
    for (const tool of readJsonl<CatalogTool>(catalog)) byId.set(`${tool.server}::${tool.name}`, tool);
  const pairs: RequestPair[] = [];
  for (const { id, requests, file } of readTrainingLines(RELATED_TRAINING_FILES)) {
    const tool = byId.get(id);
    if (tool === undefined) throw new Error(`${file}: no catalog tool ${id}`);
    for (const request of requests)
      pairs.push({ request, toolTexts: [toolText(tool)], servers: [tool.server], names: [tool.name] });
  }
  syntheticPairs = pairs.length;
  // Their term necessity only for `NECESSITY=mean|fill` (below): the default does not read it.
  if (mode !== 'tuning')
    for (const pair of pairs) {
      const toolTerms = new Set(pair.toolTexts.flatMap((text) => analyze(text)));
      for (const q of new Set(analyzeQuery(pair.request))) {
        syntheticCount.set(q, (syntheticCount.get(q) ?? 0) + 1);
        if (toolTerms.has(q)) syntheticKept.set(q, (syntheticKept.get(q) ?? 0) + 1);
      }
    }
  for (const { from, to, weight } of learnRelated(pairs, df, documents.length, relatedParams)) {
    const row = related.get(from) ?? [];
    row.push({ term: to, weight });
    related.set(from, row);
  }
}

// Term necessity (Zhao & Callan): how often a request word also appears in the tool that serves
// the request, smoothed towards the mean. Words that requests use for context ("planning",
// "curious", "family") score low and are weighted down; unseen words keep weight 1.
const { necessity } = PARAMS;
function necessityWeights(count: ReadonlyMap<string, number>, kept: ReadonlyMap<string, number>) {
  let keptAll = 0;
  let countAll = 0;
  for (const [q, n] of count) {
    keptAll += kept.get(q) ?? 0;
    countAll += n;
  }
  const prior = keptAll / Math.max(countAll, 1);
  const weights = new Map<string, number>();
  for (const [q, n] of count) {
    if (n < necessity.minQueries) continue;
    const p = ((kept.get(q) ?? 0) + necessity.smoothing * prior) / (n + necessity.smoothing);
    weights.set(q, Math.min(1, necessity.floor + (1 - necessity.floor) * (p / necessity.fullAt)));
  }
  return weights;
}
const tuningWeights = necessityWeights(requestCount, keptCount);
const syntheticWeights = necessityWeights(syntheticCount, syntheticKept);
// The weights come from the distributed tuning pairs. `NECESSITY=mean` averages them with the
// synthetic requests' (where both have a word), `NECESSITY=fill` takes the synthetic weight of words
// the tuning pairs lack: both raised the project's own sets and lowered StableToolBench's frozen
// part (BENCHMARKS.md, seventeenth session), so neither is the default; kept for re-measuring.
const ownWeight = new Map<string, number>();
for (const q of new Set([...tuningWeights.keys(), ...(mode === 'tuning' ? [] : syntheticWeights.keys())])) {
  const tuned = tuningWeights.get(q);
  const synthetic = mode === 'tuning' ? undefined : syntheticWeights.get(q);
  let weight = tuned ?? (synthetic as number);
  if (mode === 'mean' && tuned !== undefined && synthetic !== undefined) weight = (tuned + synthetic) / 2;
  if (weight < 0.995) ownWeight.set(q, weight);
}

// Keep the strongest few per term, rounded: a compact, stable artefact.
const lines: string[] = [];
const strongest = (entries: { term: string; weight: number }[], most: number) =>
  entries.sort((a, b) => b.weight - a.weight || (a.term < b.term ? -1 : 1)).slice(0, most);
for (const from of [...new Set([...table.keys(), ...ownWeight.keys(), ...related.keys()])].sort()) {
  const row = strongest(table.get(from) ?? [], PARAMS.maxPerTerm).map(
    (entry) => `${entry.term}:${Math.round(entry.weight * 100)}`,
  );
  for (const entry of strongest(related.get(from) ?? [], relatedParams.perTerm)) {
    const weight = Math.round(Math.min(entry.weight, 0.99) * 100);
    if (weight > 0) row.push(`+${entry.term}:${weight}`);
  }
  const own = ownWeight.get(from);
  if (own !== undefined) row.unshift(`=${Math.round(own * 100)}`);
  if (row.length > 0) lines.push(`${from} ${row.join(' ')}`);
}
const header = `// Generated by libs/search/scripts/learn-associations.ts from ${pairQueries} tuning (request, gold) pairs,
// ${syntheticPairs} synthetic request / tool pairs and ${documents.length} distinct catalog tool texts. Do not edit: run the script again.
// One line per query term (a Snowball stem): term [=own weight×100] assoc:weight×100 … +related:weight×100 ….
`;
writeFileSync(out, `${header}export const TERM_ASSOCIATIONS_TEXT = ${JSON.stringify(lines.join('\n'))};\n`, 'utf8');
writeFileSync(
  resolve(here, '../src/generated/known-words.ts'),
  `// Generated by libs/search/scripts/learn-associations.ts: the analysed words (5–24 letters) of every
// catalog tool text and every tuning request. The typo matcher leaves these alone. Do not edit.
export const KNOWN_WORDS_TEXT = ${JSON.stringify([...knownWords].sort().join(' '))};\n`,
  'utf8',
);
console.log(`${knownWords.size} known words`);
console.log(`${lines.length} terms, ${pairQueries} pairs, ${documents.length} tool texts → ${out}`);
