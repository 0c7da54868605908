import { EXAMPLE_BM25, exampleTable, NOTHING_SLOT } from './example-table';
import { fnv1a, isThinPublicTool, knownSlotsOf, knownToolSlots, placeIn } from './known-tools';
import type { SearchDocument } from './search-document';
import { TopK } from './top-k';

export { analyzerFingerprint, ANALYZER_PROBE, loadExampleTable, NOTHING_SLOT } from './example-table';

/**
 * Example requests: the requests written for the union catalogs' tools (`training/`, the same ones
 * the request encoder learned from), kept whole and searched like a catalog of their own. A tool's
 * description says what it does in its author's words; its examples say how people ask for it
 * ("my flight landed five hours late, am I owed money?" for a delay-compensation checker). A
 * request is scored against every example by BM25 (each term once); each tool counts its best
 * example, and the tools of the best examples are fused into the answer's ranking by reciprocal
 * rank, as the encoder's nearest tools are. Only tools with examples take part: a tenant's own
 * tools and the tools of catalogs nobody wrote examples for keep their lexical places.
 */
export const EXAMPLES = {
  /** Tools the examples vote for, best first (copies of a tool under other servers share its place). */
  tools: 10,
  /** Reciprocal-rank constant: a place counts 1 / (`rankConstant` + place), as in the encoder's merges. */
  rankConstant: 10,
  /** Weight of the examples' places beside the answer's (1: alike). */
  weight: 1,
  /** BM25 over examples: term saturation does not apply (each term once), length normalisation does. */
  k1: EXAMPLE_BM25.k1,
  b: EXAMPLE_BM25.b,
  /** Distinct request terms looked up: a long request's first ones say what it is about. */
  maxTerms: 64,
  /**
   * A doubtful answer (confidence under `below`) whose five judged tools all come from sources the
   * examples know, and at least `known` of them have examples themselves (all of them when `known`
   * or fewer are judged), is withheld when no example of the catalog scores `score` or more
   * against the request — the request is not one people ask of these tools — or none scores `wide`
   * or more while the best says less than `share` of the request (`ExampleVote.share`: it matches
   * an incidental word or two of a longer request). A judged tool without examples could be the
   * one asked for, unseen by the examples: one of a source without any (a tenant's own server)
   * keeps the gate out; up to 5 − `known` thinly described tools of known sources are tolerated.
   * Chosen by `scripts/fit-example-gate.ts` on tuning material.
   */
  abstain: { below: 0.7, score: 12, wide: 13, share: 0.2, known: 3 },
  /**
   * The other way round: an answer the lexical confidence (or the context check) would withhold is
   * given when an example scores `score` or more against the request and says at least `share` of
   * it, and its tool is among the answer's first five — people ask this of that tool in nearly
   * these words, however little its own text says it. Chosen by `scripts/fit-example-gate.ts` on
   * tuning material; `score` is above the gate's scores, so the gate never withholds a rescued
   * answer (nothing fits still may: the rescue then gives nothing back).
   */
  rescue: { score: 29, share: 0.3 },
  /**
   * Nothing fits: an answer (confident or not) is withheld when an example of a request no tool
   * serves (`training/no-capability-requests.jsonl`) scores `score` or more against the request and
   * more than `over` times every example of its first ten tools, and it won on a word of the
   * request none of them contains — it reads like something people ask that these catalogs cannot
   * do ("cancel my gym membership") more than like anything asked of the tools found. Among the ten,
   * a tool the public catalogs lack (a tenant's own) keeps the rule out, and so does a public tool
   * without examples that matches two words of the request or more (`examplesSpeakFor`,
   * `UNSPOKEN_WORDS` in `example-gate.ts`).
   * `score` is chosen by `scripts/fit-example-gate.ts` on tuning material; `over` is set by hand:
   * near-ties go to the answer (a review found right answers withheld by margins of 0.3 – 3 %).
   */
  nothing: { score: 15, over: 1.1 },
} as const;

/** One vote: a tool of the catalog and the place of its tool among the examples' best. */
export interface ExampleVote {
  readonly index: number;
  readonly place: number;
  /** Its best example's BM25 score against the request. */
  readonly score: number;
  /**
   * That score over the request's reach, the sum over its terms of the most any one example gets
   * from each: how much of what the request says its best example says too (0…1). The reach runs
   * over every tool example, not only those of the catalog's tools: in a catalog with few of the
   * union's tools, shares read lower than in the union the gate was fitted on.
   */
  readonly share: number;
}

/**
 * A request's votes, with what the examples of requests no tool serves say of it: `nothing`, the
 * best such example's score; `floor`, the most any tool of the catalog outside the votes can have
 * scored (the last vote's score when the votes are full, else 0: every tool touched is in them).
 */
export interface ExampleVoteList extends ReadonlyArray<ExampleVote> {
  readonly nothing: number;
  readonly floor: number;
  /** The example of a request no tool serves that scored `nothing` (-1 when none scored). */
  readonly nothingAt: number;
}

/** The example requests' part in one engine's answers: which of its tools have examples. */
/** Whether the ascending postings `examples[from, to)` hold `example` (a binary search). */
function holds(examples: Uint16Array, from: number, to: number, example: number): boolean {
  let low = from;
  let high = to - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const held = examples[middle] as number;
    if (held === example) return true;
    if (held < example) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

export class ExampleVotes {
  /** Per known tool (its place in the known-tools list): where its copies start in `#docs`. */
  readonly #starts: Int32Array;
  /** The catalog positions of the known tools' copies, grouped by known tool. */
  readonly #docs: Int32Array;
  /** Per catalog position: 1 when the tool has examples, 2 when it has none but a tool of its source does. */
  readonly #known: Uint8Array;
  /**
   * Per catalog position: 1 when the tool is a public union catalog tool (with examples or not), 0
   * when not, −1 not yet known (a tool without examples, judged when first asked: `#thinPublic`).
   */
  readonly #public: Int8Array;
  readonly #thinPublic: (doc: number) => boolean;
  readonly #top = new TopK(EXAMPLES.tools);
  readonly #order = new Int32Array(EXAMPLES.tools);

  /** Per catalog position: its place in the known-tools list, or -1. */
  readonly #slotOf: Int32Array;

  /** `sources`: per catalog position, its source's identity (`SearchDocument.source`). */
  private constructor(
    starts: Int32Array,
    docs: Int32Array,
    sources: readonly string[],
    slotOf: Int32Array,
    thinPublic: (doc: number) => boolean,
  ) {
    this.#slotOf = slotOf;
    this.#public = Int8Array.from(slotOf, (slot) => (slot >= 0 ? 1 : -1));
    this.#thinPublic = thinPublic;
    this.#starts = starts;
    this.#docs = docs;
    this.#known = new Uint8Array(sources.length);
    const known = new Set<string>();
    for (const doc of docs) {
      this.#known[doc] = 1;
      known.add(sources[doc] as string);
    }
    sources.forEach((source, doc) => {
      if (this.#known[doc] === 0 && known.has(source)) this.#known[doc] = 2;
    });
  }

  /**
   * Whether `term` counted in `example`'s score: the example holds it and some tool example does
   * too (a term only requests no tool serves use counts for nothing). One binary search for the
   * term, one in its postings.
   */
  counts(example: number, term: string): boolean {
    const { terms, starts, examples, idfs } = exampleTable();
    const at = placeIn(terms, fnv1a(term));
    if (at < 0 || example < 0 || idfs[at] === 0) return false;
    return holds(examples, starts[at] as number, starts[at + 1] as number, example);
  }

  /** Whether the tool at catalog position `index` has examples (they can vote for it). */
  has(index: number): boolean {
    return this.#known[index] === 1;
  }

  /**
   * Whether the tool at catalog position `index` is one of the public union catalogs' tools, with
   * examples or without (`isThinPublicTool`): one the requests no tool serves were checked against.
   * A tool without examples is looked up when first asked (one digest), not when the engine is built.
   */
  isPublic(index: number): boolean {
    if (this.#public[index] === -1) this.#public[index] = this.#thinPublic(index) ? 1 : 0;
    return this.#public[index] === 1;
  }

  /**
   * Whether an example of one of the tools at catalog positions `indices` holds `term`: a word the
   * people who need those tools say. Cost: one binary search for the term, then one in its
   * postings per example of those tools (a few each).
   */
  saidFor(term: string, indices: readonly number[]): boolean {
    const { terms, starts, examples, toolStarts, toolExamples } = exampleTable();
    const at = placeIn(terms, fnv1a(term));
    if (at < 0) return false;
    const from = starts[at] as number;
    const to = starts[at + 1] as number;
    for (const index of indices) {
      const slot = this.#slotOf[index] ?? -1;
      if (slot < 0) continue;
      for (let own = toolStarts[slot] as number; own < (toolStarts[slot + 1] as number); own += 1)
        if (holds(examples, from, to, toolExamples[own] as number)) return true;
    }
    return false;
  }

  /**
   * Whether the examples know the source of the tool at `index`: it has examples, or another tool
   * of its source (MCP server or plugin) has. A union server's thinly described tool has none of
   * its own; a tenant's own server has none at all.
   */
  knowsSource(index: number): boolean {
    return this.#known[index] !== 0;
  }

  /**
   * The votes of a catalog, or undefined when none of its tools has examples (nothing to fuse).
   * `slotOf`: each document's place in the known-tools list (`knownSlotsOf`), computed here when
   * not given.
   */
  static of(
    documents: readonly SearchDocument[],
    slotOf: Int32Array = knownSlotsOf(documents),
  ): ExampleVotes | undefined {
    const known = knownToolSlots();
    exampleTable(); // a stale index fails the engine's build, not a later request
    if (slotOf.every((slot) => slot < 0)) return undefined;
    const starts = new Int32Array(known.size + 1);
    for (const slot of slotOf) if (slot >= 0) starts[slot + 1] = (starts[slot + 1] as number) + 1;
    for (let slot = 0; slot < known.size; slot += 1)
      starts[slot + 1] = (starts[slot + 1] as number) + (starts[slot] as number);
    const docs = new Int32Array(starts[known.size] as number);
    const filled = starts.slice(0, known.size);
    slotOf.forEach((slot, doc) => {
      if (slot < 0) return;
      docs[filled[slot] as number] = doc;
      filled[slot] = (filled[slot] as number) + 1;
    });
    return new ExampleVotes(
      starts,
      docs,
      documents.map((document) => document.source ?? document.label),
      slotOf,
      (doc) => isThinPublicTool(documents[doc] as SearchDocument),
    );
  }

  /**
   * The request's reach (`ExampleVote.share`): the sum over its looked-up terms of the most one
   * example gets from each. No example scores more, so a caller needing a score can skip `votes`
   * below it. Cost: one binary search per term, no posting read.
   */
  reach(requestTerms: readonly string[]): number {
    return this.reachAt(this.lookUp(requestTerms));
  }

  /**
   * The table places of a request's distinct terms that the examples have, in the request's order:
   * at most `EXAMPLES.maxTerms` distinct terms are looked at (a long request's first ones). For a
   * caller that needs both `reachAt` and `votesAt` of one request.
   */
  lookUp(requestTerms: readonly string[]): number[] {
    const { terms } = exampleTable();
    const seen = new Set<number>();
    const places: number[] = [];
    for (const term of requestTerms) {
      const digest = fnv1a(term); // the generated index names terms by their FNV-1a
      if (seen.has(digest)) continue;
      seen.add(digest);
      if (seen.size > EXAMPLES.maxTerms) break;
      const at = placeIn(terms, digest);
      if (at >= 0) places.push(at);
    }
    return places;
  }

  /** `reach` of looked-up terms (`lookUp`). */
  reachAt(places: readonly number[]): number {
    const { tops } = exampleTable();
    let reach = 0;
    for (const at of places) reach += tops[at] as number;
    return reach;
  }

  /**
   * The catalog's tools whose examples best match the request (its terms, `requestTerms`): up to
   * `EXAMPLES.tools` tools, each by its best example, best first (ties to the lower place in the
   * known-tools list: deterministic), every copy of a tool at its place.
   * Cost: one binary search per request term (at most `EXAMPLES.maxTerms`) and one addition per
   * example holding the term.
   */
  votes(requestTerms: readonly string[]): ExampleVoteList {
    return this.votesAt(this.lookUp(requestTerms));
  }

  /** `votes` of looked-up terms (`lookUp`). */
  votesAt(places: readonly number[]): ExampleVoteList {
    const { starts, examples, tools, norms, idfs, tops, scores, touched, best, touchedTools } = exampleTable();
    let touchedCount = 0;
    let reach = 0;
    for (const at of places) {
      const from = starts[at] as number;
      const to = starts[at + 1] as number;
      const idf = idfs[at] as number;
      // A term no tool example holds adds nothing to any example (and reaches none).
      if (idf === 0) continue;
      for (let posting = from; posting < to; posting += 1) {
        const example = examples[posting] as number;
        const score = scores[example] as number;
        if (score === 0) touched[touchedCount++] = example;
        scores[example] = score + idf * (norms[example] as number);
      }
      reach += tops[at] as number;
    }
    // Each tool counts its best example; the scratch is zeroed again on the way.
    let toolCount = 0;
    let nothing = 0;
    let nothingAt = -1;
    for (let at = 0; at < touchedCount; at += 1) {
      const example = touched[at] as number;
      const tool = tools[example] as number;
      const score = scores[example] as number;
      scores[example] = 0;
      if (tool === NOTHING_SLOT) {
        if (score > nothing) {
          nothing = score;
          nothingAt = example;
        }
        continue;
      }
      const held = best[tool] as number;
      if (held === 0) touchedTools[toolCount++] = tool;
      if (score > held) best[tool] = score;
    }
    const top = this.#top;
    const here = this.#starts;
    top.reset(EXAMPLES.tools);
    for (let at = 0; at < toolCount; at += 1) {
      const tool = touchedTools[at] as number;
      if ((here[tool + 1] as number) > (here[tool] as number)) top.offer(tool, best[tool] as number);
    }
    const count = top.sortedInto(this.#order);
    const votes: ExampleVote[] = [];
    for (let place = 0; place < count; place += 1) {
      const tool = this.#order[place] as number;
      const score = best[tool] as number;
      for (let copy = here[tool] as number; copy < (here[tool + 1] as number); copy += 1)
        votes.push({ index: this.#docs[copy] as number, place, score, share: reach > 0 ? score / reach : 0 });
    }
    for (let at = 0; at < toolCount; at += 1) best[touchedTools[at] as number] = 0;
    const floor = count === EXAMPLES.tools ? (votes[votes.length - 1]?.score ?? 0) : 0;
    return Object.assign(votes, { nothing, floor, nothingAt });
  }
}
