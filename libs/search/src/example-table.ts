import { analyzeQuery } from './analyzer';
import { EXAMPLE_REQUESTS } from './generated/example-requests';
import { fnv1a, knownToolSlots } from './known-tools';

/**
 * The example requests' generated index (`generated/example-requests.ts`, written by
 * `scripts/example-requests.ts`): parsed once per process, checked against the known-tools list
 * and the analyzer it was written for, with the BM25 statistics of the tool examples. Votes are
 * counted over it in `example-requests.ts`.
 */

/** BM25 over examples: term saturation does not apply (each term once), length normalisation does. */
export const EXAMPLE_BM25 = { k1: 1.2, b: 0.75 } as const;

/** The tool place of the examples of requests no tool serves (no known tool has it). */
export const NOTHING_SLOT = 0xffff;

/**
 * A request whose analysed terms fingerprint the analyzer the index was written with: if stemming
 * or stop words change, the generated terms no longer match what requests analyse to.
 */
export const ANALYZER_PROBE =
  'Deleting the running containers, then creating 3 new images! 天気を教えて 删除文件 ウィキペディア';

/** The fingerprint the generator writes and the loader checks (FNV-1a of the probe's terms). */
export function analyzerFingerprint(): number {
  return fnv1a(analyzeQuery(ANALYZER_PROBE).join(' '));
}

export interface ExampleTable {
  /** Term digests, ascending. */
  readonly terms: Uint32Array;
  /** Per term: where its examples start in `examples` (one more entry than terms). */
  readonly starts: Uint32Array;
  readonly examples: Uint16Array;
  /** Per example: its tool's place in the known-tools list, or `NOTHING_SLOT` for a request no tool serves. */
  readonly tools: Uint16Array;
  /** Per known tool: where its examples start in `toolExamples` (one more entry than known tools). */
  readonly toolStarts: Uint32Array;
  /** The tool examples' ids grouped by their tool's place, ascending within each tool. */
  readonly toolExamples: Uint16Array;
  /** Per example: its BM25 length factor, (k1 + 1) / (1 + k1 (1 − b + b · length / average)). */
  readonly norms: Float32Array;
  /** Per term: its idf times the largest length factor among its examples — the most one example gets from it. */
  readonly tops: Float64Array;
  /** Per term: its BM25 idf among the tool examples. */
  readonly idfs: Float64Array;
  /** Scratch for one request: per example its score, and which examples it touched. */
  readonly scores: Float64Array;
  readonly touched: Int32Array;
  /** Scratch for one request: per known tool its best example's score, and which tools it touched. */
  readonly best: Float64Array;
  readonly touchedTools: Int32Array;
}
let table: ExampleTable | undefined;

/** Little-endian unsigned integers `width` bytes wide from base64 (atob: the library runs wherever JavaScript does). */
function unpacked<T extends Uint8Array | Uint16Array | Uint32Array>(base64: string, make: (length: number) => T): T {
  const binary = atob(base64);
  const out = make(0);
  const width = out.BYTES_PER_ELEMENT;
  if (binary.length % width !== 0)
    throw new Error('generated/example-requests.ts is cut short: run scripts/example-requests.ts again');
  const values = make(binary.length / width);
  for (let at = 0; at < values.length; at += 1) {
    let value = 0;
    for (let byte = width - 1; byte >= 0; byte -= 1) value = value * 256 + binary.charCodeAt(at * width + byte);
    values[at] = value;
  }
  return values;
}

/**
 * Parses the generated index once per process; throws when it was written for another known-tools
 * list or analyzer (a build step was skipped: the library's tests fail the same way).
 */
export function loadExampleTable(): Pick<ExampleTable, 'terms' | 'examples' | 'tools'> {
  return exampleTable();
}

/** The parsed index with its statistics and scratch (one per process). */
export function exampleTable(): ExampleTable {
  if (table !== undefined) return table;
  const known = knownToolSlots();
  if (EXAMPLE_REQUESTS.knownTools !== known.size || EXAMPLE_REQUESTS.knownToolsDigest !== known.digest)
    throw new Error(
      'generated/example-requests.ts was written for another known-tools list: run scripts/known-tools.ts, then scripts/example-requests.ts',
    );
  if (EXAMPLE_REQUESTS.analyzer !== analyzerFingerprint())
    throw new Error(
      'generated/example-requests.ts was written with another analyzer (stemming, stop words): run scripts/example-requests.ts again',
    );
  const terms = unpacked(EXAMPLE_REQUESTS.terms, (n) => new Uint32Array(n));
  const starts = unpacked(EXAMPLE_REQUESTS.starts, (n) => new Uint32Array(n));
  const examples = unpacked(EXAMPLE_REQUESTS.examples, (n) => new Uint16Array(n));
  const tools = unpacked(EXAMPLE_REQUESTS.tools, (n) => new Uint16Array(n));
  const lengths = unpacked(EXAMPLE_REQUESTS.lengths, (n) => new Uint8Array(n));
  if (starts.length !== terms.length + 1 || starts[terms.length] !== examples.length || lengths.length !== tools.length)
    throw new Error('generated/example-requests.ts does not add up: run scripts/example-requests.ts again');
  // The statistics are the tool examples' alone: the examples of requests no tool serves are scored
  // like them but change no tool's score.
  let toolExampleCount = 0;
  let lengthSum = 0;
  tools.forEach((tool, example) => {
    if (tool === NOTHING_SLOT) return;
    toolExampleCount += 1;
    lengthSum += lengths[example] as number;
  });
  const average = lengthSum / Math.max(1, toolExampleCount);
  const { k1, b } = EXAMPLE_BM25;
  const norms = Float32Array.from(lengths, (length) => (k1 + 1) / (1 + k1 * (1 - b + (b * length) / average)));
  const idfs = new Float64Array(terms.length);
  const tops = new Float64Array(terms.length);
  for (let at = 0; at < terms.length; at += 1) {
    const from = starts[at] as number;
    const to = starts[at + 1] as number;
    let held = 0;
    let most = 0;
    for (let posting = from; posting < to; posting += 1) {
      const example = examples[posting] as number;
      if (tools[example] === NOTHING_SLOT) continue;
      held += 1;
      most = Math.max(most, norms[example] as number);
    }
    // A term no tool example holds counts for nothing: a request no tool serves is compared with
    // the tools' examples on the words both use, and one rare word (or a CJK pair across two words)
    // of its own must not outweigh them.
    idfs[at] = held === 0 ? 0 : idfOf(held, toolExampleCount);
    tops[at] = (idfs[at] as number) * most;
  }
  const toolStarts = new Uint32Array(known.size + 1);
  tools.forEach((tool) => {
    if (tool !== NOTHING_SLOT) toolStarts[tool + 1] = (toolStarts[tool + 1] as number) + 1;
  });
  for (let slot = 0; slot < known.size; slot += 1)
    toolStarts[slot + 1] = (toolStarts[slot + 1] as number) + (toolStarts[slot] as number);
  const toolExamples = new Uint16Array(toolStarts[known.size] as number);
  const filled = toolStarts.slice(0, known.size);
  tools.forEach((tool, example) => {
    if (tool === NOTHING_SLOT) return;
    toolExamples[filled[tool] as number] = example;
    filled[tool] = (filled[tool] as number) + 1;
  });
  table = {
    terms,
    starts,
    examples,
    tools,
    toolStarts,
    toolExamples,
    norms,
    idfs,
    tops,
    scores: new Float64Array(tools.length),
    touched: new Int32Array(tools.length),
    best: new Float64Array(known.size),
    touchedTools: new Int32Array(known.size),
  };
  return table;
}

/** BM25's idf of a term held by `held` of `count` examples. */
export function idfOf(held: number, count: number): number {
  return Math.log(1 + (count - held + 0.5) / (held + 0.5));
}
