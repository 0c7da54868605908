/**
 * Trains the request encoder (`src/request-encoder.ts`) and writes it as a committed build
 * artefact, `src/generated/request-encoder.ts`: one vector per word, learned so that a synthetic
 * request (`training/synthetic-requests.jsonl` only: `training-files.ts`; written by helpers for the
 * tools of the union catalogs; no query of any evaluation set) lands nearest the tool it was written for.
 *
 * The model: a request is the unit-length sum of its words' vectors, a tool the unit-length sum
 * of its text's words' vectors weighted by their IDF in the union catalog; words are shared by
 * both sides. Trained with in-batch negatives (each request against the other tools of its batch
 * of 64, softmax over cosines at temperature 0.05), AdaGrad per word, six passes. Words seen fewer
 * than three times (in tool texts and requests together) get no vector. Stored as signed bytes
 * with one scale per word.
 *
 * Run: `npx tsx libs/search/scripts/learn-request-encoder.ts [data dir]` (default ../shared/data).
 * Deterministic: a seeded generator (mulberry32) and a fixed order give the same bytes from the
 * same data.
 * Settings (BENCHMARKS.md, issue 21) were chosen on the tuning parts only.
 */
import { writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { analyzeQuery } from '../src/analyzer';
import { Bm25Index } from '../src/bm25-index';
import { encodedToolTerms } from '../src/request-encoder';
import { loadCatalogDocuments, UNION } from './eval-data';
import { publicDataDir, quoted } from './public-catalogs';
import { ENCODER_TRAINING_FILES, readTrainingLines } from './training-files';

const SETTINGS = {
  dimensions: 48,
  passes: 6,
  batch: 64,
  rate: 0.5,
  temperature: 0.05,
  minCount: 3,
  seed: 11,
  // `ENCODER='{"dimensions":32}'` overrides settings, for measuring variants (the artefact is then
  // not the committed one: run without it before committing).
  ...(JSON.parse(process.env['ENCODER'] ?? '{}') as object),
};

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = publicDataDir();
const out = resolve(here, '../src/generated/request-encoder.ts');

// The union catalog's tools, as the engine indexes them (no query file is read).
const union = loadCatalogDocuments(dataDir, UNION);
const index = new Bm25Index(union.documents);
const toolTerms = union.documents.map((document) => encodedToolTerms(document));
const position = new Map<string, number>();
union.ids.forEach((id, at) => position.set(id, at));

// Requests, and how often each word is seen (once per tool text, once per request).
const requests: { terms: string[]; tool: number }[] = [];
const seen = new Map<string, number>();
const count = (term: string) => seen.set(term, (seen.get(term) ?? 0) + 1);
for (const terms of toolTerms) terms.forEach(count);
for (const { id, requests: texts, file } of readTrainingLines(ENCODER_TRAINING_FILES)) {
  const tool = position.get(id);
  if (tool === undefined) throw new Error(`${file}: no union tool ${id}`);
  for (const text of texts) {
    const terms = [...new Set(analyzeQuery(text))];
    terms.forEach(count);
    requests.push({ terms, tool });
  }
}
const words = [...seen]
  .filter(([, n]) => n >= SETTINGS.minCount)
  .map(([term]) => term)
  .sort();
const wordId = new Map(words.map((term, at) => [term, at]));
type Bag = { id: number; weight: number }[];
const bagOf = (terms: readonly { term: string; weight: number }[]): Bag =>
  terms.flatMap(({ term, weight }) => {
    const id = wordId.get(term);
    return id === undefined ? [] : [{ id, weight }];
  });
const requestBags = requests.map(({ terms, tool }) => ({
  bag: bagOf(terms.map((term) => ({ term, weight: 1 }))),
  tool,
}));
const toolBags = toolTerms.map((terms) =>
  bagOf(terms.map((term) => ({ term, weight: index.idf(index.termId(term) ?? -1) }))),
);
const pairs = requestBags.filter(({ bag, tool }) => bag.length > 0 && (toolBags[tool] as Bag).length > 0);

// mulberry32: 32-bit integer steps (Math.imul), so no bit is lost to floating point.
let state = SETTINGS.seed >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const D = SETTINGS.dimensions;
const vectors = new Float32Array(words.length * D).map(() => (random() - 0.5) * 0.1);
const squares = new Float32Array(words.length);

/** The unit-length sum of a bag's vectors into `into`; returns the length before scaling. */
function embed(bag: Bag, into: Float32Array): number {
  into.fill(0);
  for (const { id, weight } of bag)
    for (let k = 0; k < D; k += 1) into[k] = (into[k] as number) + weight * (vectors[id * D + k] as number);
  let norm = 0;
  for (let k = 0; k < D; k += 1) norm += (into[k] as number) ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let k = 0; k < D; k += 1) into[k] = (into[k] as number) / norm;
  return norm;
}

/** Moves a bag's words against the gradient `g` of its unit vector `u` (AdaGrad per word). */
function update(bag: Bag, u: Float32Array, g: Float32Array, norm: number): void {
  let along = 0;
  for (let k = 0; k < D; k += 1) along += (u[k] as number) * (g[k] as number);
  const onSum = new Float32Array(D);
  for (let k = 0; k < D; k += 1) onSum[k] = ((g[k] as number) - along * (u[k] as number)) / norm;
  for (const { id, weight } of bag) {
    let square = 0;
    for (let k = 0; k < D; k += 1) square += (weight * (onSum[k] as number)) ** 2;
    squares[id] = (squares[id] as number) + square / D;
    const step = SETTINGS.rate / Math.sqrt((squares[id] as number) + 1e-8);
    for (let k = 0; k < D; k += 1)
      vectors[id * D + k] = (vectors[id * D + k] as number) - step * weight * (onSum[k] as number);
  }
}

const B = SETTINGS.batch;
const requestVectors = Array.from({ length: B }, () => new Float32Array(D));
const toolVectors = Array.from({ length: B }, () => new Float32Array(D));
const requestGradients = Array.from({ length: B }, () => new Float32Array(D));
const toolGradients = Array.from({ length: B }, () => new Float32Array(D));
const requestNorms = new Float32Array(B);
const toolNorms = new Float32Array(B);
const logits = new Float64Array(B);
const order = pairs.map((_, at) => at);
for (let pass = 0; pass < SETTINGS.passes; pass += 1) {
  for (let at = order.length - 1; at > 0; at -= 1) {
    const other = Math.floor(random() * (at + 1));
    [order[at], order[other]] = [order[other] as number, order[at] as number];
  }
  let loss = 0;
  for (let start = 0; start + B <= order.length; start += B) {
    const batch = order.slice(start, start + B).map((at) => pairs[at] as { bag: Bag; tool: number });
    batch.forEach(({ bag, tool }, b) => {
      requestNorms[b] = embed(bag, requestVectors[b] as Float32Array);
      toolNorms[b] = embed(toolBags[tool] as Bag, toolVectors[b] as Float32Array);
      (requestGradients[b] as Float32Array).fill(0);
      (toolGradients[b] as Float32Array).fill(0);
    });
    for (let i = 0; i < B; i += 1) {
      const r = requestVectors[i] as Float32Array;
      let max = -Infinity;
      for (let j = 0; j < B; j += 1) {
        const t = toolVectors[j] as Float32Array;
        let dot = 0;
        for (let k = 0; k < D; k += 1) dot += (r[k] as number) * (t[k] as number);
        logits[j] = dot / SETTINGS.temperature;
        max = Math.max(max, logits[j] as number);
      }
      let sum = 0;
      for (let j = 0; j < B; j += 1) sum += logits[j] = Math.exp((logits[j] as number) - max);
      loss -= Math.log((logits[i] as number) / sum);
      for (let j = 0; j < B; j += 1) {
        // Another request of the same tool in the batch is no negative.
        if (j !== i && batch[j]?.tool === batch[i]?.tool) continue;
        const g = ((logits[j] as number) / sum - (j === i ? 1 : 0)) / SETTINGS.temperature;
        const t = toolVectors[j] as Float32Array;
        const gr = requestGradients[i] as Float32Array;
        const gt = toolGradients[j] as Float32Array;
        for (let k = 0; k < D; k += 1) {
          gr[k] = (gr[k] as number) + g * (t[k] as number);
          gt[k] = (gt[k] as number) + g * (r[k] as number);
        }
      }
    }
    batch.forEach(({ bag, tool }, b) => {
      update(bag, requestVectors[b] as Float32Array, requestGradients[b] as Float32Array, requestNorms[b] as number);
      update(
        toolBags[tool] as Bag,
        toolVectors[b] as Float32Array,
        toolGradients[b] as Float32Array,
        toolNorms[b] as number,
      );
    });
  }
  console.log(`pass ${pass + 1}: loss ${(loss / order.length).toFixed(3)}`);
}

// Signed bytes with one scale per word (the largest component maps to 127).
const bytes = new Int8Array(words.length * D);
const entries = words.map((term, id) => {
  let largest = 0;
  for (let k = 0; k < D; k += 1) largest = Math.max(largest, Math.abs(vectors[id * D + k] as number));
  const scale = largest > 0 ? largest / 127 : 1;
  for (let k = 0; k < D; k += 1) bytes[id * D + k] = Math.round((vectors[id * D + k] as number) / scale);
  return `${term}:${Number(scale.toPrecision(4))}`;
});
writeFileSync(
  out,
  `// Generated by libs/search/scripts/learn-request-encoder.ts from ${pairs.length} synthetic requests for ${union.documents.length} union tools. Do not edit.
// ${words.length} words × ${D} dimensions as signed bytes (base64), each word with the scale of its bytes.
export const REQUEST_ENCODER = {
  dimensions: ${D},
  terms:
    ${quoted(entries.join(' '))},
  vectors:
    ${quoted(Buffer.from(bytes.buffer).toString('base64'))},
};
`,
  'utf8',
);
console.log(`${words.length} words × ${D} → ${out}`);
if (process.env['ENCODER'] !== undefined) console.warn(`settings overridden by ENCODER: not the committed artefact`);
