import { analyze, analyzeQuery } from './analyzer';
import { fieldTexts, type FieldName } from './bm25-index';
import { confidenceFeatures, type ConfidenceFeatures } from './confidence';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import { MAX_QUERY_CHARS, type TermOrigin } from './query-terms';
import type { SearchEngine } from './search-engine';
import { ENCODER } from './request-encoder';
import { EXAMPLES } from './example-requests';
import type { SearchHit } from './search-types';

/** How one query term contributed to one tool's score. */
export interface TermExplanation {
  readonly term: string;
  readonly idf: number;
  /** The term's BM25F contribution to this tool (before rewards), its weight applied. */
  readonly contribution: number;
  /**
   * The term's weight in the query: the request's own words carry their learned term weight (1
   * when not learned); added terms less (typo corrections, glossary renderings, associations).
   */
  readonly weight: number;
  /** Why the term is in the query. */
  readonly origin: TermOrigin;
  /** For an added term, the request's word it stands for (a typo's misspelling, an expanded word). */
  readonly from: string;
  /** How often the term occurs in each field of the tool. */
  readonly fields: Partial<Record<FieldName, number>>;
}

/** Why a tool was returned where it was. */
export interface HitExplanation {
  readonly rank: number;
  readonly name: string;
  readonly reason: SearchHit['reason'];
  readonly score: number;
  /** Matched query terms (terms the tool lacks are left out). */
  readonly terms: readonly TermExplanation[];
  /** Sum of the term contributions. */
  readonly bm25: number;
  /** The multiplier for the tool's name words found in the query. */
  readonly nameReward: number;
  /** What the tool got from its source's best match. */
  readonly sourceBoost: number;
  /** Routing rules that moved it (filled by the caller that applied them). */
  readonly rules: readonly string[];
  /** One sentence for an operator. */
  readonly why: string;
}

const round = (value: number) => Math.round(value * 1000) / 1000;

/** `term`, or `term (typo of serch)` / `term (expanded from snapshot ×0.2)` for added terms. */
function describeTerm(entry: TermExplanation): string {
  switch (entry.origin) {
    case 'typo':
      return `${entry.term} (typo of ${entry.from} ×${entry.weight})`;
    case 'association':
      return `${entry.term} (learned from ${entry.from} ×${entry.weight})`;
    case 'related':
      return `${entry.term} (learned from requests saying ${entry.from} ×${entry.weight})`;
    case 'glossary':
      return `${entry.term} (glossary for ${entry.from} ×${entry.weight})`;
    case 'translation':
      return `${entry.term} (translates ${entry.from})`;
    case 'synonym':
      return `${entry.term} (also translates ${entry.from} ×${entry.weight})`;
    case 'implied':
      return `${entry.term} (implied)`;
    case 'value':
      return `${entry.term} (the request holds ${entry.from} ×${entry.weight})`;
    default:
      return entry.weight < 1 ? `${entry.term} ×${entry.weight}` : entry.term;
  }
}

/** The whole answer explained: its confidence and whether search withheld it. */
export interface AnswerExplanation {
  /** Calibrated probability that the hits hold a right tool. */
  readonly confidence: number;
  /** Search withheld the hits (confidence, context check or example requests); `hits` then explains the nearest. */
  readonly abstained: boolean;
  readonly abstainBelow: number;
  /** The context check's support, when the confidence was low enough to run it (`context-check.ts`). */
  readonly contextSupport: number | null;
  /**
   * The best example request's score, when the examples judged a doubtful answer (withheld by
   * `exampleGate`; with `rescued`, at `rescueScore` or more it was given: `example-requests.ts`).
   */
  readonly exampleScore: number | null;
  /** With `exampleScore`: the share of the request its best example says (`ExampleVote.share`). */
  readonly exampleShare: number | null;
  /** The gate's first score: under it a doubtful answer is withheld (`exampleGate.score`). */
  readonly exampleScoreBelow: number;
  /**
   * The gate: `EXAMPLES.abstain` (under `score`, or under `wide` while the share is under `share`;
   * only when the judged tools' sources all have examples and `known` of them have their own).
   */
  readonly exampleGate: {
    readonly score: number;
    readonly wide: number;
    readonly share: number;
    readonly known: number;
  };
  /**
   * The lexical confidence or the context check would have withheld the answer, and an example
   * request scoring `rescueScore` or more gave it after all (`EXAMPLES.rescue`).
   */
  readonly rescued: boolean;
  readonly rescueScore: number;
  /**
   * Withheld because nothing fits (`EXAMPLES.nothing`): the score of the example of a request no
   * tool serves that read closer than every example of the answer's tools; null otherwise.
   */
  readonly nothingScore: number | null;
  /** The score that example needs (`EXAMPLES.nothing.score`). */
  readonly nothingScoreFrom: number;
  readonly features: ConfidenceFeatures | null;
  /** The confidence was under `ENCODER.gate`: the hits merge the lexical ranking with the request encoder's. */
  readonly encoded: boolean;
  /** A confident answer whose tools the request encoder was trained for were re-ordered by it within the lexical top ten. */
  readonly reordered: boolean;
  /** The ranking was fused with the votes of the example requests the request resembles (`example-requests.ts`). */
  readonly voted: boolean;
  readonly hits: HitExplanation[];
}

/** Explains one query's whole answer: confidence (with its features) and each hit (or the nearest). */
export function explainAnswer(engine: SearchEngine, query: string, limit: number): AnswerExplanation {
  const answer = engine.answer(query, limit);
  const abstained = answer.hits.length === 0 && answer.nearest.length > 0;
  const shown = abstained ? answer.nearest : answer.hits;
  // The confidence judges the lexical answer, before any merge with the request encoder's.
  const judged = answer.lexical ?? shown;
  const bm25 = judged.length > 0 && judged.every((hit) => hit.reason === 'bm25');
  const round3 = (value: number) => Math.round(value * 1000) / 1000;
  const features = bm25
    ? confidenceFeatures(engine.index, engine.queryTerms(query.trim()), judged, () => engine.typos)
    : null;
  return {
    confidence: round3(answer.confidence),
    abstained,
    abstainBelow: CONFIDENCE_MODEL.abstainBelow,
    contextSupport: answer.contextSupport === undefined ? null : round3(answer.contextSupport),
    exampleScore: answer.exampleScore === undefined ? null : round3(answer.exampleScore),
    exampleShare: answer.exampleShare === undefined ? null : round3(answer.exampleShare),
    exampleScoreBelow: EXAMPLES.abstain.score,
    exampleGate: {
      score: EXAMPLES.abstain.score,
      wide: EXAMPLES.abstain.wide,
      share: EXAMPLES.abstain.share,
      known: EXAMPLES.abstain.known,
    },
    rescued: answer.rescued === true,
    rescueScore: EXAMPLES.rescue.score,
    nothingScore: answer.nothingScore === undefined ? null : round3(answer.nothingScore),
    nothingScoreFrom: EXAMPLES.nothing.score,
    features:
      features === null
        ? null
        : (Object.fromEntries(
            Object.entries(features).map(([k, v]) => [k, round3(v)]),
          ) as unknown as ConfidenceFeatures),
    encoded: answer.encoded === true,
    reordered: answer.reordered === true,
    voted: answer.voted === true,
    hits: explainHits(engine, query, shown, answer.encoded === true, answer.reordered === true, answer.voted === true),
  };
}

/**
 * Explains a ranking: for each hit, the query terms it matched, in which fields, what each
 * contributed, and the rewards on top. For operators and the CLI; never shown to the model.
 */
export function explainHits(
  engine: SearchEngine,
  query: string,
  hits: readonly SearchHit[],
  encoded = false,
  reordered = false,
  voted = false,
): HitExplanation[] {
  const { index } = engine;
  const analysed = engine.queryTerms(query);
  const terms = analysed.ids.map((id, at) => ({
    id,
    term: analysed.terms[at] ?? '',
    weight: analysed.weights[at] ?? 1,
    origin: analysed.origins[at] ?? 'query',
    from: analysed.sources[at] ?? '',
  }));
  const querySet = new Set(analysed.ids);
  const bm25Of = (doc: number) =>
    terms.reduce((sum, entry) => sum + entry.weight * index.contribution(entry.id, doc), 0);
  // The best plain score within each source, for the source boost.
  const bestBySource = new Map<string, number>();
  const votes = voted
    ? new Map(
        (engine.learned?.examples?.votes(analyzeQuery(query.trim().slice(0, MAX_QUERY_CHARS))) ?? []).map((vote) => [
          vote.index,
          vote,
        ]),
      )
    : undefined;
  const labels = index.documents.map((doc) => doc.label);
  for (let doc = 0; doc < index.size; doc += 1) {
    const score = bm25Of(doc);
    const label = labels[doc] ?? '';
    if (score > (bestBySource.get(label) ?? 0)) bestBySource.set(label, score);
  }
  return hits.map((hit, rank) => {
    const document = index.documents[hit.index];
    const texts = document === undefined ? undefined : fieldTexts(document);
    const counted = new Map<FieldName, Map<string, number>>();
    if (texts !== undefined) {
      for (const field of Object.keys(texts) as FieldName[]) {
        const counts = new Map<string, number>();
        for (const term of analyze(texts[field])) counts.set(term, (counts.get(term) ?? 0) + 1);
        counted.set(field, counts);
      }
    }
    const matched: TermExplanation[] = terms
      .map(({ term, id, weight, origin, from }) => {
        const fields: Partial<Record<FieldName, number>> = {};
        for (const [field, counts] of counted) {
          const count = counts.get(term);
          if (count !== undefined) fields[field] = count;
        }
        const contribution = round(weight * index.contribution(id, hit.index));
        return { term, idf: round(index.idf(id)), contribution, weight: round(weight), origin, from, fields };
      })
      .filter((entry) => entry.contribution > 0);
    const nameTerms = index.nameTerms(hit.index);
    let shared = 0;
    for (const term of nameTerms) if (querySet.has(term)) shared += 1;
    const nameReward = 1 + engine.ranking.nameBonus * (nameTerms.length > 0 ? shared / nameTerms.length : 0);
    const sourceBoost = engine.ranking.sourceBoost * (bestBySource.get(document?.label ?? '') ?? 0);
    const bm25 = bm25Of(hit.index);
    const similarity = encoded || reordered ? engine.learned?.encoder?.similarity(query, hit.index) : undefined;
    const merge =
      similarity === undefined
        ? ''
        : encoded
          ? `; placed by merging the lexical ranking with the request encoder's (confidence under ${ENCODER.gate}; cosine ${similarity})`
          : `; the lexical top ${ENCODER.lexical}'s tools the request encoder was trained for were re-ordered by it among their places (cosine ${similarity})`;
    const vote = votes?.get(hit.index);
    const examples =
      vote === undefined
        ? ''
        : `; its example requests voted for it (place ${vote.place + 1} of ${EXAMPLES.tools}, best example BM25 ${round(vote.score)}), fused by reciprocal rank`;
    const why =
      hit.reason === 'examples'
        ? `found by the example requests written for this tool: its best example scored BM25 ${vote === undefined ? 'unknown' : round(vote.score)} against the request (place ${vote === undefined ? 'unknown' : vote.place + 1} of ${EXAMPLES.tools} tools voted for), fused into the answer by reciprocal rank` +
          (matched.length > 0 ? `; matched ${matched.map(describeTerm).join(', ')}` : '')
        : hit.reason === 'encoder'
          ? `found by the request encoder near the request (cosine ${similarity ?? 'unknown'}), merged in because the answer's confidence was under ${ENCODER.gate}` +
            (matched.length > 0 ? `; matched ${matched.map(describeTerm).join(', ')}` : '')
          : hit.reason === 'exact'
            ? "the query is exactly this tool's name, so it comes first"
            : hit.reason === 'substring'
              ? "no query word occurs in any tool, and this tool's name contains the query text"
              : hit.reason === 'rule'
                ? 'a routing rule pins it to the top for this query'
                : `BM25F ${round(bm25)} × name reward ${round(nameReward)} + source boost ${round(sourceBoost)}` +
                  (matched.length > 0 ? `; matched ${matched.map(describeTerm).join(', ')}` : '') +
                  merge +
                  examples;
    return {
      rank: rank + 1,
      name: hit.name,
      reason: hit.reason,
      score: Number.isFinite(hit.score) ? round(hit.score) : hit.score,
      terms: matched,
      bm25: round(bm25),
      nameReward: round(nameReward),
      sourceBoost: round(sourceBoost),
      rules: [],
      why,
    };
  });
}
