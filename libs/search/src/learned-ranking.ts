import { analyzeQuery } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { EncoderMerge } from './encoder-merge';
import { knownSlotsOf } from './known-tools';
import { gateCase, gateWithholds, nothingFits } from './example-gate';
import { EXAMPLES, ExampleVotes, type ExampleVote, type ExampleVoteList } from './example-requests';
import { fuseVotes } from './vote-fusion';
import { MAX_QUERY_CHARS } from './query-terms';
import type { RankingOptions } from './ranking-options';
import { ENCODER } from './request-encoder';
import { JUDGED_TOOLS, type SearchAnswer, type SearchHit } from './search-types';

/**
 * What search learned from the training requests, in one catalog's answers (catalogs of 100 tools
 * or more): the request encoder (`encoder-merge.ts`) merges its nearest tools into doubtful
 * answers and re-orders the tools it knows in confident ones; then the example requests
 * (`example-requests.ts`) vote for the tools whose examples the request resembles. Both act on
 * answers the lexical confidence lets through; the examples also withhold a doubtful one that none
 * of them supports (`EXAMPLES.abstain`), and give back one the confidence withholds when an
 * example close to the request vouches for one of its tools (`EXAMPLES.rescue`).
 */
export class LearnedRanking {
  readonly encoder: EncoderMerge | undefined;
  readonly examples: ExampleVotes | undefined;
  readonly #names: readonly string[];
  /** Doubtful answers the examples do not support are withheld (`ranking.abstain`). */
  readonly #abstain: boolean;
  /** The catalog's index: which of an answer's tools have a word of the request ("nothing fits"). */
  readonly #index: Bm25Index;

  private constructor(
    index: Bm25Index,
    encoder: EncoderMerge | undefined,
    examples: ExampleVotes | undefined,
    names: readonly string[],
    abstain: boolean,
  ) {
    this.#index = index;
    this.encoder = encoder;
    this.examples = examples;
    this.#names = names;
    this.#abstain = abstain;
  }

  /** The learned parts `ranking` turns on for a catalog, or undefined when none applies. */
  static of(index: Bm25Index, names: readonly string[], ranking: RankingOptions): LearnedRanking | undefined {
    // Each tool's place among the known tools, computed once for both parts.
    const slots = ranking.encode || ranking.examples ? knownSlotsOf(index.documents) : undefined;
    const encoder = ranking.encode ? new EncoderMerge(index, names, slots) : undefined;
    const examples = ranking.examples ? ExampleVotes.of(index.documents, slots) : undefined;
    return encoder === undefined && examples === undefined
      ? undefined
      : new LearnedRanking(index, encoder, examples, names, ranking.abstain);
  }

  /**
   * The answer for ranked `hits` (at least `ENCODER.lexical` when the ranking has as many; `shown`
   * is their first `limit`): merged with the encoder's nearest tools when doubtful, else with its
   * known tools re-ordered, then fused with the example requests' votes, then cut to `limit`.
   */
  answer(
    request: string,
    hits: readonly SearchHit[],
    shown: SearchHit[],
    limit: number,
    confidence: number,
  ): SearchAnswer {
    // The request's words, analysed once for both parts.
    const terms = analyzeQuery(request.slice(0, MAX_QUERY_CHARS));
    return this.#answer(terms, this.examples?.votes(terms), hits, shown, limit, confidence);
  }

  /**
   * An answer the lexical confidence or the context check withholds, given after all when an
   * example request scores `EXAMPLES.rescue.score` or more against the request, says at least
   * `EXAMPLES.rescue.share` of it, and its tool is among the first `JUDGED_TOOLS` of the answer
   * (whatever the limit, so limits 1 to 5 decide alike). The answer is then `answer`'s, marked
   * `rescued`; undefined when no example vouches for it, or abstention is off.
   */
  rescued(
    request: string,
    hits: readonly SearchHit[],
    shown: SearchHit[],
    limit: number,
    confidence: number,
  ): SearchAnswer | undefined {
    if (!this.#abstain || this.examples === undefined) return undefined;
    const terms = analyzeQuery(request.slice(0, MAX_QUERY_CHARS));
    // No example can score more than the request's reach: most withheld answers stop here.
    const places = this.examples.lookUp(terms);
    if (this.examples.reachAt(places) < EXAMPLES.rescue.score) return undefined;
    const votes = this.examples.votesAt(places);
    const vouching = new Set<number>();
    for (const vote of votes)
      if (vote.score >= EXAMPLES.rescue.score && vote.share >= EXAMPLES.rescue.share) vouching.add(vote.index);
    if (vouching.size === 0) return undefined;
    const judged = Math.max(limit, JUDGED_TOOLS);
    const answer = this.#answer(terms, votes, hits, hits.slice(0, judged), judged, confidence);
    if (!answer.hits.slice(0, JUDGED_TOOLS).some((hit) => vouching.has(hit.index))) return undefined;
    return {
      ...answer,
      hits: answer.hits.slice(0, limit),
      ...(answer.lexical === undefined ? {} : { lexical: shown }),
      rescued: true,
      exampleScore: votes[0]?.score ?? 0,
      exampleShare: votes[0]?.share ?? 0,
    };
  }

  #answer(
    terms: readonly string[],
    votes: ExampleVoteList | undefined,
    hits: readonly SearchHit[],
    shown: SearchHit[],
    limit: number,
    confidence: number,
  ): SearchAnswer {
    const wide = Math.max(limit, ENCODER.lexical);
    const encoded = this.encoder?.merged(terms, hits, wide, confidence);
    const reordered = encoded === undefined ? this.encoder?.reordered(terms, hits) : undefined;
    const ranked = encoded ?? reordered ?? hits;
    // The votes are fused into the first ten only, whatever the limit: an answer's first ten do not
    // depend on how many were asked for.
    const fused = votes === undefined ? undefined : this.#fused(ranked, votes);
    const voted = fused === undefined ? undefined : withRest(fused, ranked, wide);
    const final = voted ?? ranked;
    const unsupported = this.#unsupported(final, votes, confidence, terms);
    if (encoded === undefined && reordered === undefined && voted === undefined && unsupported === undefined)
      return { hits: shown, confidence, nearest: [] };
    const given = final.length > limit ? final.slice(0, limit) : [...final];
    return {
      // Withheld by the examples: what it would have been is kept as the nearest.
      ...(unsupported === undefined
        ? { hits: given, nearest: [] }
        : {
            hits: [],
            nearest: given,
            exampleScore: unsupported.score,
            exampleShare: unsupported.share,
            ...(unsupported.nothing === undefined ? {} : { nothingScore: unsupported.nothing }),
          }),
      confidence,
      ...(encoded !== undefined ? { encoded: true as const } : {}),
      ...(reordered !== undefined ? { reordered: true as const } : {}),
      ...(voted !== undefined ? { voted: true as const } : {}),
      lexical: shown,
    };
  }

  /** `ranked`'s first ten fused with `votes` (`fuseVotes`); undefined when nothing moves. */
  #fused(ranked: readonly SearchHit[], votes: readonly ExampleVote[]): SearchHit[] | undefined {
    const examples = this.examples as ExampleVotes;
    return fuseVotes(
      ranked.slice(0, ENCODER.lexical),
      votes,
      (index) => this.#names[index] ?? '',
      ENCODER.lexical,
      (index) => examples.has(index),
    );
  }

  /**
   * The best example's score and share when the examples withhold the answer, else undefined: when
   * a request no tool serves reads closer (`nothingFits`, `EXAMPLES.nothing`; then also its score
   * as `nothing`), or the example gate withholds a doubtful answer (`gateWithholds`, `EXAMPLES.abstain`).
   */
  #unsupported(
    final: readonly SearchHit[],
    votes: ExampleVoteList | undefined,
    confidence: number,
    terms: readonly string[],
  ): { score: number; share: number; nothing?: number } | undefined {
    // Neither rule can apply: no need to count the answer's tools.
    if (
      !this.#abstain ||
      this.examples === undefined ||
      votes === undefined ||
      (confidence >= EXAMPLES.abstain.below && votes.nothing < EXAMPLES.nothing.score)
    )
      return undefined;
    const judged = gateCase(this.examples, final, votes, confidence, { index: this.#index, terms });
    if (nothingFits(judged)) return { score: judged.score, share: judged.share, nothing: judged.nothing };
    return gateWithholds(judged) ? { score: judged.score, share: judged.share } : undefined;
  }
}

/**
 * The fused first ten, then the rest of `ranked` in its order (a tool the votes pushed out of the
 * ten first), each tool once, up to `limit`; scores never rise down the list.
 */
function withRest(fused: readonly SearchHit[], ranked: readonly SearchHit[], limit: number): SearchHit[] {
  const out = fused.slice(0, limit);
  const placed = new Set(out.map((hit) => hit.index));
  for (const hit of ranked) {
    if (out.length >= limit) break;
    if (placed.has(hit.index)) continue;
    placed.add(hit.index);
    const previous = (out[out.length - 1] as SearchHit).score;
    out.push(hit.score <= previous ? hit : { ...hit, score: previous });
  }
  return out;
}

/** An answer search gives: `shown`, or what the learned parts make of the ranking (`LearnedRanking.answer`). */
export function givenAnswer(
  learned: LearnedRanking | undefined,
  request: string,
  hits: readonly SearchHit[],
  shown: SearchHit[],
  limit: number,
  confidence: number,
  contextSupport?: number,
): SearchAnswer {
  const answer =
    learned === undefined
      ? { hits: shown, confidence, nearest: [] }
      : learned.answer(request, hits, shown, limit, confidence);
  return withSupport(answer, contextSupport);
}

/**
 * An answer the lexical confidence or the context check withholds: empty, its hits kept as the
 * nearest, unless the example requests give it after all (`LearnedRanking.rescued`).
 */
export function withheldAnswer(
  learned: LearnedRanking | undefined,
  request: string,
  hits: readonly SearchHit[],
  shown: SearchHit[],
  limit: number,
  confidence: number,
  contextSupport?: number,
): SearchAnswer {
  const answer = learned?.rescued(request, hits, shown, limit, confidence) ?? { hits: [], confidence, nearest: shown };
  return withSupport(answer, contextSupport);
}

/** `answer` with the context check's support, when it ran. */
function withSupport(answer: SearchAnswer, contextSupport: number | undefined): SearchAnswer {
  return contextSupport === undefined ? answer : { ...answer, contextSupport };
}
