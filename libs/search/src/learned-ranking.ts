import { analyzeQuery } from './analyzer';
import type { Bm25Index } from './bm25-index';
import { EncoderMerge } from './encoder-merge';
import { ExampleVotes, fuseVotes } from './example-requests';
import { MAX_QUERY_CHARS } from './query-terms';
import type { RankingOptions } from './ranking-options';
import { ENCODER } from './request-encoder';
import type { SearchAnswer, SearchHit } from './search-types';

/**
 * What search learned from the training requests, in one catalog's answers (catalogs of 100 tools
 * or more): the request encoder (`encoder-merge.ts`) merges its nearest tools into doubtful
 * answers and re-orders the tools it knows in confident ones; then the example requests
 * (`example-requests.ts`) vote for the tools whose examples the request resembles. Both act on
 * answers search gives; the decision to answer at all (the confidence) stays lexical.
 */
export class LearnedRanking {
  readonly encoder: EncoderMerge | undefined;
  readonly examples: ExampleVotes | undefined;
  readonly #names: readonly string[];

  private constructor(encoder: EncoderMerge | undefined, examples: ExampleVotes | undefined, names: readonly string[]) {
    this.encoder = encoder;
    this.examples = examples;
    this.#names = names;
  }

  /** The learned parts `ranking` turns on for a catalog, or undefined when none applies. */
  static of(index: Bm25Index, names: readonly string[], ranking: RankingOptions): LearnedRanking | undefined {
    const encoder = ranking.encode ? new EncoderMerge(index, names) : undefined;
    const examples = ranking.examples ? ExampleVotes.of(index.documents) : undefined;
    return encoder === undefined && examples === undefined ? undefined : new LearnedRanking(encoder, examples, names);
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
    const wide = Math.max(limit, ENCODER.lexical);
    // The request's words, analysed once for both parts.
    const terms = analyzeQuery(request.slice(0, MAX_QUERY_CHARS));
    const encoded = this.encoder?.merged(terms, hits, wide, confidence);
    const reordered = encoded === undefined ? this.encoder?.reordered(terms, hits) : undefined;
    const ranked = encoded ?? reordered ?? hits;
    const votes = this.examples?.votes(terms);
    const voted =
      votes === undefined
        ? undefined
        : fuseVotes(ranked.slice(0, wide), votes, (index) => this.#names[index] ?? '', wide);
    const final = voted ?? ranked;
    if (encoded === undefined && reordered === undefined && voted === undefined)
      return { hits: shown, confidence, nearest: [] };
    return {
      hits: final.length > limit ? final.slice(0, limit) : [...final],
      confidence,
      nearest: [],
      ...(encoded !== undefined ? { encoded: true as const } : {}),
      ...(reordered !== undefined ? { reordered: true as const } : {}),
      ...(voted !== undefined ? { voted: true as const } : {}),
      lexical: shown,
    };
  }
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
  return contextSupport === undefined ? answer : { ...answer, contextSupport };
}
