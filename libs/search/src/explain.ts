import { analyze } from './analyzer';
import { fieldTexts, type FieldName } from './bm25-index';
import type { SearchEngine, SearchHit } from './search-engine';

/** How one query term contributed to one tool's score. */
export interface TermExplanation {
  readonly term: string;
  readonly idf: number;
  /** The term's BM25F contribution to this tool (before rewards), its weight applied. */
  readonly contribution: number;
  /** 1 for the request's own words; less for a glossary rendering of one of them. */
  readonly weight: number;
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

/**
 * Explains a ranking: for each hit, the query terms it matched, in which fields, what each
 * contributed, and the rewards on top. For operators and the CLI; never shown to the model.
 */
export function explainHits(engine: SearchEngine, query: string, hits: readonly SearchHit[]): HitExplanation[] {
  const { index } = engine;
  const analysed = engine.queryTerms(query);
  const terms = analysed.ids.map((id, at) => ({
    id,
    term: analysed.terms[at] ?? '',
    weight: analysed.weights[at] ?? 1,
  }));
  const querySet = new Set(analysed.ids);
  const bm25Of = (doc: number) =>
    terms.reduce((sum, entry) => sum + entry.weight * index.contribution(entry.id, doc), 0);
  // The best plain score within each source, for the source boost.
  const bestBySource = new Map<string, number>();
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
      .map(({ term, id, weight }) => {
        const fields: Partial<Record<FieldName, number>> = {};
        for (const [field, counts] of counted) {
          const count = counts.get(term);
          if (count !== undefined) fields[field] = count;
        }
        const contribution = round(weight * index.contribution(id, hit.index));
        return { term, idf: round(index.idf(id)), contribution, weight, fields };
      })
      .filter((entry) => entry.contribution > 0);
    const nameTerms = index.nameTerms(hit.index);
    let shared = 0;
    for (const term of nameTerms) if (querySet.has(term)) shared += 1;
    const nameReward = 1 + engine.ranking.nameBonus * (nameTerms.length > 0 ? shared / nameTerms.length : 0);
    const sourceBoost = engine.ranking.sourceBoost * (bestBySource.get(document?.label ?? '') ?? 0);
    const bm25 = bm25Of(hit.index);
    const why =
      hit.reason === 'exact'
        ? "the query is exactly this tool's name, so it comes first"
        : hit.reason === 'substring'
          ? "no query word occurs in any tool, and this tool's name contains the query text"
          : hit.reason === 'rule'
            ? 'a routing rule pins it to the top for this query'
            : `BM25F ${round(bm25)} × name reward ${round(nameReward)} + source boost ${round(sourceBoost)}` +
              (matched.length > 0 ? `; matched ${matched.map((entry) => entry.term).join(', ')}` : '');
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
