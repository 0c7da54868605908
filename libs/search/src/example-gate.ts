import { isCjkTerm, isValueWord } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { EXAMPLES, type ExampleVoteList, type ExampleVotes } from './example-requests';
import { ENCODER } from './request-encoder';
import { JUDGED_TOOLS, type SearchHit } from './search-types';

/** The example gate's thresholds (`EXAMPLES.abstain`; `scripts/fit-example-gate.ts` tries others). */
export interface ExampleGate {
  readonly below: number;
  readonly score: number;
  readonly wide: number;
  readonly share: number;
  readonly known: number;
}

/** What the gate judges of a doubtful answer. */
export interface GateCase {
  readonly confidence: number;
  /** The best example's score against the request, and the share of the request it says. */
  readonly score: number;
  readonly share: number;
  /** The judged tools (the answer's first five): how many, how many have examples of their own. */
  readonly judged: number;
  readonly known: number;
  /** Every judged tool comes from a source the examples know (`ExampleVotes.knowsSource`). */
  readonly sources: boolean;
  /** The best score of an example of a request no tool serves (`ExampleVoteList.nothing`). */
  readonly nothing: number;
  /**
   * The most any example of the answer's first `NOTHING_WINDOW` tools can have scored (its vote's,
   * or the votes' `floor`), and whether the examples speak for every one of them: it has examples,
   * or it is a public tool that matches fewer than `UNSPOKEN_WORDS` words of the request
   * (`examplesSpeakFor`; a tenant's own tool never). The latter computed when first asked.
   */
  readonly supported: number;
  readonly windowKnown: () => boolean;
  /**
   * Whether the request no tool serves won on something those tools lack: a word of the request
   * (not a value) that counted in that request's score (`ExampleVotes.counts`) and that no tool of
   * the first `NOTHING_WINDOW` contains. Computed when first asked.
   */
  readonly saysMore: () => boolean;
}

/**
 * The tools "nothing fits" looks at: the answer's first ten (the places the votes are fused into),
 * whatever the limit — a tool the examples cannot speak for anywhere there keeps the rule out.
 */
export const NOTHING_WINDOW = ENCODER.lexical;

/**
 * A tool without examples in the window keeps "nothing fits" out when it matches this many words
 * of the request or more. Two, an action and its object, as in the confidence's `firstTerms`: a
 * tool that does what is asked matches both (a tenant's own CI tool for "rerun the failed CI
 * workflow"); the catalog tools with bare descriptions that reach the first ten of a request no
 * tool serves come in on one incidental word ("add", "print"). One kept the rule from 18 more
 * tuning no-capability requests, three withheld 9 tuning hits (BENCHMARKS.md, twenty-fifth session).
 */
export const UNSPOKEN_WORDS = 2;

/** The gate's view of an answer: its first `JUDGED_TOOLS` tools and the best vote. */
export function gateCase(
  examples: ExampleVotes,
  hits: readonly SearchHit[],
  votes: ExampleVoteList,
  confidence: number,
  request?: { readonly index: Bm25Index; readonly terms: readonly string[] },
): GateCase {
  const first = hits.slice(0, JUDGED_TOOLS);
  const window = hits.slice(0, NOTHING_WINDOW);
  let supported = votes.floor;
  for (const vote of votes)
    if (vote.score > supported && window.some((hit) => hit.index === vote.index)) supported = vote.score;
  return {
    confidence,
    score: votes[0]?.score ?? 0,
    share: votes[0]?.share ?? 0,
    judged: first.length,
    known: first.reduce((count, hit) => count + (examples.has(hit.index) ? 1 : 0), 0),
    sources: first.every((hit) => examples.knowsSource(hit.index)),
    nothing: votes.nothing,
    supported,
    windowKnown: once(() => examplesSpeakFor(examples, window, request)),
    saysMore: once(() => {
      if (request === undefined) return true;
      const indices = window.map((hit) => hit.index);
      return wonOnMore(
        request.index,
        request.terms,
        window,
        (term) => examples.counts(votes.nothingAt, term),
        (term) => examples.saidFor(term, indices),
      );
    }),
  };
}

/**
 * Whether nothing fits the answer `judged` describes (`EXAMPLES.nothing`): an example of a request
 * no tool serves scores `score` or more against the request and more than `over` times any example
 * of its first `NOTHING_WINDOW` tools, the examples speak for every one of those tools
 * (`windowKnown`), and the request says something none of them has (`saysMore`). Any confidence.
 * The two comparisons come first: most answers stop there, before any word is looked up.
 */
export function nothingFits(
  judged: GateCase,
  score: number = EXAMPLES.nothing.score,
  over: number = EXAMPLES.nothing.over,
): boolean {
  return (
    judged.judged > 0 &&
    judged.nothing >= score &&
    judged.nothing > judged.supported * over &&
    judged.windowKnown() &&
    judged.saysMore()
  );
}

/** Request words looked at by `wonOnMore` and `examplesSpeakFor` (a long request's first ones). */
const MAX_SAID = 64;

/** The request's distinct terms that are not values (`isValueWord`), its first `MAX_SAID`. */
function saidTerms(terms: readonly string[]): string[] {
  const said = new Set<string>();
  for (const term of terms) {
    if (isValueWord(term)) continue;
    said.add(term);
    if (said.size === MAX_SAID) break;
  }
  return [...said];
}

/**
 * Whether every tool of `window` has examples or is a public catalog tool (`ExampleVotes.isPublic`)
 * that matches fewer than `UNSPOKEN_WORDS` distinct words of the request (its analysed terms;
 * values left out; a CJK word of three characters is two pairs, so it counts twice — the side of
 * giving the answer). A tool the public catalogs lack never. Without the request, whether every
 * one has examples. Cost: nothing more when all have examples; else one binary search per request
 * word, then one per (word, tool without examples), all bounded.
 */
function examplesSpeakFor(
  examples: ExampleVotes,
  window: readonly SearchHit[],
  request: { readonly index: Bm25Index; readonly terms: readonly string[] } | undefined,
): boolean {
  const unspoken = window.filter((hit) => !examples.has(hit.index));
  if (unspoken.length === 0) return true;
  // A tool the public catalogs do not have (a tenant's own) may be the one asked for, found by its
  // name alone: the requests no tool serves were never checked against it.
  if (request === undefined || unspoken.some((hit) => !examples.isPublic(hit.index))) return false;
  const ids: number[] = [];
  for (const term of saidTerms(request.terms)) {
    const id = request.index.termId(term);
    if (id !== undefined) ids.push(id);
  }
  return unspoken.every((tool) => {
    let matched = 0;
    for (const id of ids)
      if (request.index.contribution(id, tool.index) > 0 && ++matched >= UNSPOKEN_WORDS) return false;
    return true;
  });
}

/**
 * Whether a word of the request (its analysed terms; values left out) that `counted` for the
 * request no tool serves is in none of `tools`: a request whose likeness to one no tool serves
 * lies only in words those tools have ("merge alice's pull request on github" beside "enable
 * auto-merge on GitHub pull request") is not one no tool serves. CJK pairs need more, since the
 * tools are mostly described in English and almost never hold one: a pair no tool of the catalog
 * has is passed over (mostly a pair across two words, 天下 of 明天下午), and a pair counts only
 * when no example of `tools` holds it either (`said`: people who need those tools say 明天 and
 * 下午, "tomorrow afternoon", as often as people who need a courier do). Cost: per word, two
 * binary searches in the examples and one per tool, and for a CJK pair one per example of the
 * tools; all bounded.
 */
function wonOnMore(
  index: Bm25Index,
  terms: readonly string[],
  tools: readonly SearchHit[],
  counted: (term: string) => boolean,
  said: (term: string) => boolean,
): boolean {
  for (const term of saidTerms(terms)) {
    if (!counted(term)) continue;
    const id = index.termId(term);
    if (id === undefined) {
      if (isCjkTerm(term)) continue;
      return true;
    }
    if (tools.every((tool) => index.contribution(id, tool.index) <= 0) && !(isCjkTerm(term) && said(term))) return true;
  }
  return false;
}

function once(compute: () => boolean): () => boolean {
  let value: boolean | undefined;
  return () => (value ??= compute());
}

/**
 * Whether `gate` withholds the answer `judged` describes: a doubtful one (confidence under
 * `below`) whose judged tools all come from sources the examples know, at least `known` of them
 * with examples of their own (all of them when `known` or fewer are judged), when no example
 * scores `score` or more against the request, or none scores `wide` or more while the best says
 * under `share` of it (`EXAMPLES.abstain`).
 */
export function gateWithholds(judged: GateCase, gate: ExampleGate = EXAMPLES.abstain): boolean {
  return (
    judged.judged > 0 &&
    judged.sources &&
    judged.known >= Math.min(gate.known, judged.judged) &&
    judged.confidence < gate.below &&
    (judged.score < gate.score || (judged.score < gate.wide && judged.share < gate.share))
  );
}
