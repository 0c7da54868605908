/**
 * Related words learned from request / tool pairs (`LearnedTerm.related`): for a request word, the
 * tool words the tools serving its requests have (and the request lacks) far more often than tools
 * in general. A translation table in the sense of Berger & Lafferty, thresholded. A pair must be
 * seen with several different tools (`minNames`; copies of one tool under several server names
 * count once) and may be asked to span servers (`minServers`): one tool's words are its own
 * vocabulary, not the language's.
 */
import { analyze, analyzeQuery, QUERY_STOP_WORDS, stem } from '../src/analyzer';

/** One request and the texts of the tools that serve it. */
export interface RequestPair {
  readonly request: string;
  readonly toolTexts: readonly string[];
  readonly servers: readonly string[];
  /** The serving tools' names (copies of one tool under several servers share a name). */
  readonly names?: readonly string[];
}

export interface RelatedParams {
  /** A request word must occur in at least this many requests. */
  readonly minQueries: number;
  /** …and the tool word in the serving tools of at least this many of them. */
  readonly minPairs: number;
  /** Share of the word's requests whose serving tools have the tool word. */
  readonly minShare: number;
  /** Tool words in more than this share of all tool texts are too common to help. */
  readonly maxToolShare: number;
  /** Share over the tool word's share of all tool texts. */
  readonly minLift: number;
  /** Distinct servers the pair must be seen with. */
  readonly minServers: number;
  /** Distinct tool names the pair must be seen with (copies of one tool count once). */
  readonly minNames?: number;
  /** A tool word related to more request words than this is filler of tool texts ("default"), dropped. */
  readonly maxSources?: number;
  /** Weight of a pair seen in every request of the word (scaled by its share). */
  readonly weight: number;
}

/** Stems of the query stop words: "please" in a tool's text is no word to search for. */
const STOP_STEMS = new Set([...QUERY_STOP_WORDS].map((word) => stem(word)));
/**
 * Words worth learning: three letters or more of a–z (numbers, ids and two-letter pieces are one
 * request's values), or a CJK pair; not a stop word.
 */
function isContentTerm(term: string): boolean {
  if (STOP_STEMS.has(term) || QUERY_STOP_WORDS.has(term)) return false;
  if (/^[a-z]{3,24}$/.test(term)) return true;
  return term.length === 2 && term.charCodeAt(0) >= 0x3000 && term.charCodeAt(1) >= 0x3000;
}

/** The related words of every request word the pairs teach, strongest first per word. */
export function learnRelated(
  pairs: readonly RequestPair[],
  df: ReadonlyMap<string, number>,
  documentCount: number,
  params: RelatedParams,
): { from: string; to: string; weight: number }[] {
  const count = new Map<string, number>();
  const together = new Map<string, Map<string, number>>();
  // Per "q t" pair: the servers and the tool names it was seen with.
  const seenWith = new Map<string, { servers: Set<string>; names: Set<string> }>();
  for (const pair of pairs) {
    const requestTerms = new Set(analyzeQuery(pair.request));
    const toolTerms = new Set<string>();
    for (const text of pair.toolTexts) for (const term of analyze(text)) toolTerms.add(term);
    if (toolTerms.size === 0) continue;
    for (const q of requestTerms) {
      if (!isContentTerm(q)) continue;
      count.set(q, (count.get(q) ?? 0) + 1);
      let row = together.get(q);
      if (row === undefined) together.set(q, (row = new Map()));
      for (const t of toolTerms) {
        if (requestTerms.has(t) || !isContentTerm(t)) continue;
        row.set(t, (row.get(t) ?? 0) + 1);
        const key = `${q} ${t}`;
        let seen = seenWith.get(key);
        if (seen === undefined) seenWith.set(key, (seen = { servers: new Set(), names: new Set() }));
        for (const server of pair.servers) seen.servers.add(server);
        for (const name of pair.names ?? []) seen.names.add(name);
      }
    }
  }
  const learned: { from: string; to: string; weight: number }[] = [];
  for (const [q, row] of together) {
    const n = count.get(q) ?? 0;
    if (n < params.minQueries) continue;
    for (const [t, both] of row) {
      const share = both / n;
      const spread = (df.get(t) ?? 0) / documentCount;
      if (both < params.minPairs || share < params.minShare || spread > params.maxToolShare) continue;
      const seen = seenWith.get(`${q} ${t}`);
      if ((seen?.servers.size ?? 0) < params.minServers || (seen?.names.size ?? 0) < (params.minNames ?? 0)) continue;
      if (share / Math.max(spread, 1 / documentCount) < params.minLift) continue;
      learned.push({ from: q, to: t, weight: params.weight * share });
    }
  }
  if (params.maxSources === undefined) return learned;
  const sources = new Map<string, number>();
  for (const { to } of learned) sources.set(to, (sources.get(to) ?? 0) + 1);
  return learned.filter(({ to }) => (sources.get(to) ?? 0) <= (params.maxSources as number));
}
