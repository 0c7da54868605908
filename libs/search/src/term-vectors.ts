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

/** Adds each known term's vector (at its IDF) into `into`; returns whether any term was known. */
function addTerms(terms: Iterable<string>, into: Float64Array, skip?: ReadonlySet<string>): boolean {
  const { ids, idf, bytes, rank } = load();
  into.fill(0);
  let any = false;
  for (const term of terms) {
    if (skip?.has(term) === true) continue;
    const id = ids.get(term);
    if (id === undefined) continue;
    any = true;
    const weight = (idf[id] as number) / 127;
    const from = id * rank;
    for (let k = 0; k < rank; k += 1) into[k] = (into[k] as number) + weight * (bytes[from + k] as number);
  }
  return any;
}

function cosine(a: Float64Array, b: Float64Array): number {
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

/** The analysed terms of a tool's text as the vectors were learned from: name, then description. */
export function toolTerms(name: string, description: string): Set<string> {
  return new Set(analyze(`${name} ${description.slice(0, MAX_TOOL_TEXT)}`));
}

/**
 * How well the best-supported tool's subject fits the rest of the request, in −1…1: for each tool,
 * the cosine between the request's words the tool does *not* contain and the tool's own words,
 * then the largest. `requestTerms` are the request's terms as search understood them: words of
 * the catalog, typos corrected (a word no tool has is no evidence either way). A tool that has
 * every one of them reads
 * 1 (nothing speaks against it); one whose other words have no vector (too rare or too common to
 * have been learned) reads 0 (nothing speaks for it). Cost: bounded by `MAX_REQUEST_TERMS` and
 * `MAX_TOOL_TEXT` per tool.
 */
export function contextSupport(requestTerms: readonly string[], tools: readonly ReadonlySet<string>[]): number {
  const { rank } = load();
  const request = [...new Set(requestTerms.slice(0, MAX_REQUEST_TERMS))];
  const rest = new Float64Array(rank);
  const tool = new Float64Array(rank);
  let best = tools.length === 0 ? 0 : -1;
  for (const terms of tools) {
    if (request.every((term) => terms.has(term))) return 1;
    if (!addTerms(request, rest, terms)) return 1;
    addTerms(terms, tool);
    best = Math.max(best, cosine(rest, tool));
  }
  return best;
}
