import { analyze } from './analyzer';
import { TERM_VECTORS } from './generated/term-vectors';

/**
 * Latent-semantic word vectors learned from the public catalogs' tool texts
 * (`scripts/learn-term-vectors.ts`), and the one thing search asks of them: does the rest of a
 * request talk about the same subject as the tools that matched some of its words?
 *
 * A lookalike answer matches a request on a word or two and nothing else: "fix the leaking kitchen
 * *faucet*" → a crypto faucet. The words it lacks ("fix", "leaking", "kitchen") sit far from the
 * tool's text in the learned space; the words a serving tool lacks ("draw a flowchart of a sorting
 * algorithm" next to a Mermaid diagram tool) sit close.
 */
interface Vectors {
  readonly rank: number;
  readonly ids: ReadonlyMap<string, number>;
  readonly idf: Float64Array;
  readonly bytes: Int8Array;
}
let vectors: Vectors | undefined;

/** Parses the generated table once per process (about 8 ms; `SearchEngine` calls it when built). */
export function loadTermVectors(): Vectors {
  if (vectors !== undefined) return vectors;
  const entries = TERM_VECTORS.terms.split(' ');
  const ids = new Map<string, number>();
  const idf = new Float64Array(entries.length);
  entries.forEach((entry, at) => {
    const colon = entry.lastIndexOf(':');
    ids.set(entry.slice(0, colon), at);
    idf[at] = Number(entry.slice(colon + 1)) / 100;
  });
  // atob, not Buffer: the library runs wherever JavaScript does.
  const binary = atob(TERM_VECTORS.vectors);
  if (binary.length !== entries.length * TERM_VECTORS.rank)
    // A table out of step with its words would read past its end and turn every cosine into NaN.
    throw new Error(
      `generated/term-vectors.ts holds ${binary.length} bytes for ${entries.length} words × ${TERM_VECTORS.rank}: run scripts/learn-term-vectors.ts again`,
    );
  const bytes = new Int8Array(binary.length);
  for (let at = 0; at < binary.length; at += 1) bytes[at] = (binary.charCodeAt(at) << 24) >> 24;
  vectors = { rank: TERM_VECTORS.rank, ids, idf, bytes };
  return vectors;
}

/** Words of a request looked at (a long request's first ones say what it is about). */
const MAX_REQUEST_TERMS = 64;
/**
 * Characters of a tool's description read for its subject: its first sentences name it (the whole
 * description, up to 2,000 characters, fitted the same; the vectors were learned from whole texts).
 */
const MAX_TOOL_TEXT = 600;

/** Adds a word's vector, times `weight` (over the byte scale), into `into`. */
function addVector(into: Float32Array | Float64Array, id: number, weight: number): void {
  const { bytes, rank } = loadTermVectors();
  const scaled = weight / 127;
  const from = id * rank;
  for (let k = 0; k < rank; k += 1) into[k] = (into[k] as number) + scaled * (bytes[from + k] as number);
}

function cosine(a: Float64Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let k = 0; k < a.length; k += 1) {
    dot += (a[k] as number) * (b[k] as number);
    na += (a[k] as number) ** 2;
    nb += (b[k] as number) ** 2;
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
}

/** A tool's subject: the words of its name and the start of its description, and their vector. */
export interface ToolSubject {
  /** The analysed words, as `termId` gives them (words the lookup does not know are left out), sorted. */
  readonly termIds: Int32Array;
  /** The IDF-weighted sum of their vectors (a word counted at each occurrence); `null` when none has one. */
  readonly vector: Float32Array | null;
}

/**
 * A tool's subject: its name and the first `MAX_TOOL_TEXT` characters of its description.
 * `termId` maps a word to the caller's ids (an index's terms).
 */
export function toolSubject(
  name: string,
  description: string,
  termId: (term: string) => number | undefined,
): ToolSubject {
  const { ids, idf, rank } = loadTermVectors();
  const terms = analyze(`${name} ${description.slice(0, MAX_TOOL_TEXT)}`);
  const own = new Set<number>();
  const vector = new Float32Array(rank);
  let learned = false;
  for (const term of terms) {
    const id = termId(term);
    if (id !== undefined) own.add(id);
    const vectorId = ids.get(term);
    if (vectorId === undefined) continue;
    addVector(vector, vectorId, idf[vectorId] as number);
    learned = true;
  }
  return { termIds: Int32Array.from(own).sort(), vector: learned ? vector : null };
}

/** Whether a sorted id list holds an id (binary search). */
export function holds(ids: Int32Array, id: number): boolean {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const value = ids[middle] as number;
    if (value === id) return true;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** What the context check needs of one returned tool. */
export interface ContextTool {
  /** Whether the tool's subject text has a term of the request. */
  readonly has: (term: string) => boolean;
  /** The subject's vector. */
  readonly vector: Float32Array | null;
}

/** A `ContextTool` from a tool's text alone (for callers without an index; engines cache subjects). */
export function contextTool(name: string, description: string): ContextTool {
  const words = new Map<string, number>();
  const subject = toolSubject(name, description, (term) => {
    if (!words.has(term)) words.set(term, words.size);
    return words.get(term);
  });
  return {
    has: (term) => {
      const id = words.get(term);
      return id !== undefined && holds(subject.termIds, id);
    },
    vector: subject.vector,
  };
}

/**
 * How well the best-supported tool's subject fits the rest of the request, in −1…1: for each tool,
 * the cosine between the request's words its subject lacks (each word once, at its IDF) and the
 * subject, then the largest. `requestTerms` are the request's words as search understood them
 * (catalog words; the caller leaves out typo corrections and CJK bigrams). Nothing counts against
 * an answer without evidence: a tool whose subject has every request word with a vector reads 1
 * for the answer (words too rare or too common to have been learned say nothing), and a tool with
 * no learned word of its own is skipped (all skipped: 1). Cost: at most `MAX_REQUEST_TERMS` vector
 * additions, plus one per word a tool has, per tool.
 */
export function contextSupport(requestTerms: readonly string[], tools: readonly ContextTool[]): number {
  if (tools.length === 0) return 0;
  const { ids, idf, rank } = loadTermVectors();
  // The request's words with a vector, summed once; each tool then takes away the words it has.
  const learnedIds: number[] = [];
  const learnedTerms: string[] = [];
  for (const term of new Set(requestTerms.slice(0, MAX_REQUEST_TERMS))) {
    const id = ids.get(term);
    if (id === undefined) continue;
    learnedIds.push(id);
    learnedTerms.push(term);
  }
  if (learnedIds.length === 0) return 1;
  const total = new Float64Array(rank);
  for (const id of learnedIds) addVector(total, id, idf[id] as number);
  const rest = new Float64Array(rank);
  let best = -1;
  let judged = 0;
  for (const tool of tools) {
    rest.set(total);
    let lacking = learnedIds.length;
    for (let at = 0; at < learnedIds.length; at += 1) {
      if (!tool.has(learnedTerms[at] as string)) continue;
      const id = learnedIds[at] as number;
      addVector(rest, id, -(idf[id] as number));
      lacking -= 1;
    }
    if (lacking === 0) return 1;
    if (tool.vector === null) continue;
    judged += 1;
    best = Math.max(best, cosine(rest, tool.vector));
  }
  return judged === 0 ? 1 : best;
}
