import { analyze } from './analyzer';
import { TERM_VECTORS } from './generated/term-vectors';

/**
 * Latent-semantic word vectors learned from the public catalogs' tool texts
 * (`scripts/learn-term-vectors.ts`), and the one thing search asks of them: does the rest of a
 * request talk about the same subject as the tool that matched some of its words?
 *
 * A lookalike answer matches a request on a word used in another sense: "rake the *leaves* in the
 * front yard" → "leave a WhatsApp group", "fix the leaking kitchen *faucet*" → a crypto faucet.
 * The words it does not match ("rake", "yard", "kitchen", "leaking") sit far from the tool's text
 * in the learned space; the unmatched words of a request a tool serves ("draw a flowchart of a
 * sorting algorithm" next to a Mermaid diagram tool) sit close.
 */
interface Vectors {
  readonly rank: number;
  readonly ids: ReadonlyMap<string, number>;
  readonly idf: Float64Array;
  readonly bytes: Int8Array;
}
let vectors: Vectors | undefined;

function load(): Vectors {
  if (vectors !== undefined) return vectors;
  const entries = TERM_VECTORS.terms.split(' ');
  const ids = new Map<string, number>();
  const idf = new Float64Array(entries.length);
  entries.forEach((entry, at) => {
    const colon = entry.lastIndexOf(':');
    ids.set(entry.slice(0, colon), at);
    idf[at] = Number(entry.slice(colon + 1)) / 100;
  });
  // atob, not Buffer: the library runs wherever JavaScript does. Once per process, a few ms.
  const binary = atob(TERM_VECTORS.vectors);
  const bytes = new Int8Array(binary.length);
  for (let at = 0; at < binary.length; at += 1) bytes[at] = (binary.charCodeAt(at) << 24) >> 24;
  vectors = { rank: TERM_VECTORS.rank, ids, idf, bytes };
  return vectors;
}

/** Words of a request looked at (a long request's first ones say what it is about). */
const MAX_REQUEST_TERMS = 64;
/** Characters of a tool's description read: its first sentences name its subject (2,000 fitted the same). */
const MAX_TOOL_TEXT = 600;

/** Adds each known term's vector (at its IDF) into `into` (zeroed first); whether any term was known. */
function addTerms(
  terms: Iterable<string>,
  into: Float32Array | Float64Array,
  skip?: (term: string) => boolean,
): boolean {
  const { ids, idf, bytes, rank } = load();
  into.fill(0);
  let any = false;
  for (const term of terms) {
    if (skip?.(term) === true) continue;
    const id = ids.get(term);
    if (id === undefined) continue;
    any = true;
    const weight = (idf[id] as number) / 127;
    const from = id * rank;
    for (let k = 0; k < rank; k += 1) into[k] = (into[k] as number) + weight * (bytes[from + k] as number);
  }
  return any;
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
  /** The IDF-weighted sum of their vectors; `null` when none of them has one. */
  readonly vector: Float32Array | null;
}

/**
 * A tool's subject as the vectors were learned from it: its name and the first `MAX_TOOL_TEXT`
 * characters of its description. `termId` maps a word to the caller's ids (an index's terms).
 */
export function toolSubject(
  name: string,
  description: string,
  termId: (term: string) => number | undefined,
): ToolSubject {
  const terms = analyze(`${name} ${description.slice(0, MAX_TOOL_TEXT)}`);
  const ids = new Set<number>();
  for (const term of terms) {
    const id = termId(term);
    if (id !== undefined) ids.add(id);
  }
  const vector = new Float32Array(load().rank);
  return {
    termIds: Int32Array.from(ids).sort(),
    vector: addTerms(terms, vector) ? vector : null,
  };
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

/** A `ContextTool` from a tool's text alone (for callers without an index; the engine caches subjects). */
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
 * the cosine between the request's words the tool does *not* have and the tool's subject, then the
 * largest. `requestTerms` are the request's terms as search understood them: words of the
 * catalog, typo corrections left out (a word no tool has, or a guess at a slip, is no evidence).
 * A tool that has every one of them, or whose other words have no vector (too rare or too common
 * to have been learned), reads 1: nothing of the request speaks against it. Cost: at most
 * `MAX_REQUEST_TERMS` vector additions per tool.
 */
export function contextSupport(requestTerms: readonly string[], tools: readonly ContextTool[]): number {
  const { ids, idf, bytes, rank } = load();
  // The request's words with a vector, summed once; each tool then takes away the words it has.
  const learned: number[] = [];
  const words: string[] = [];
  for (const term of new Set(requestTerms.slice(0, MAX_REQUEST_TERMS))) {
    const id = ids.get(term);
    if (id === undefined) continue;
    learned.push(id);
    words.push(term);
  }
  if (tools.length === 0) return 0;
  if (learned.length === 0) return 1;
  const total = new Float64Array(rank);
  for (const id of learned) addVector(total, id, 1);
  const rest = new Float64Array(rank);
  let best = -1;
  for (const tool of tools) {
    rest.set(total);
    let lacking = learned.length;
    for (let at = 0; at < learned.length; at += 1) {
      if (!tool.has(words[at] as string)) continue;
      addVector(rest, learned[at] as number, -1);
      lacking -= 1;
    }
    if (lacking === 0) return 1;
    best = Math.max(best, tool.vector === null ? 0 : cosine(rest, tool.vector));
  }
  return best;

  function addVector(into: Float64Array, id: number, sign: number): void {
    const weight = (sign * (idf[id] as number)) / 127;
    const from = id * rank;
    for (let k = 0; k < rank; k += 1) into[k] = (into[k] as number) + weight * (bytes[from + k] as number);
  }
}
