import type { Bm25Index } from './bm25-index';
import type { QueryTerms, TermOrigin } from './query-terms';
import type { SearchDocument } from './search-document';
import { contextSupport, holds, toolSubject, type ToolSubject } from './term-vectors';

/** The request's own words as search understood them (not what expansion or typo correction added). */
const OWN_ORIGINS: ReadonlySet<TermOrigin> = new Set<TermOrigin>(['query', 'translation', 'implied']);
/**
 * Tool subjects kept per engine (about 1 KB each: a vector of 100 floats and a few dozen term ids,
 * with their object headers): the tools of doubtful answers repeat, and computing one analyses its
 * text again. Past this many the cache starts over, so an engine holds at most about 1 MiB of them.
 */
const MAX_SUBJECTS = 1024;

/** Whether a term is a CJK bigram (or has any character from U+3000 on). */
function isCjk(term: string): boolean {
  for (let at = 0; at < term.length; at += 1) if (term.charCodeAt(at) >= 0x3000) return true;
  return false;
}

/**
 * The context check of one catalog's doubtful answers (`term-vectors.ts`): how well the rest of a
 * request fits the subject of the best-supported of the tools search returned. Owns the catalog's
 * cache of tool subjects, which every session and tenant searching this catalog shares (it holds
 * nothing of any request).
 */
export class ContextCheck {
  readonly #index: Bm25Index;
  /** Each tool's original name (as written: `validateMermaid` splits into two words) and description. */
  readonly #names: readonly string[];
  readonly #descriptions: readonly string[];
  readonly #subjects = new Map<number, ToolSubject>();
  readonly #termId = (term: string): number | undefined => this.#index.termId(term);

  constructor(index: Bm25Index, documents: readonly SearchDocument[]) {
    this.#index = index;
    // References to the catalog's own strings, no copies.
    this.#names = documents.map((doc) => doc.originalName);
    this.#descriptions = documents.map((doc) => doc.description);
  }

  /**
   * The support of an answer: `contextSupport` over the request's own catalog words (the English
   * words a Japanese or Chinese request translates to included; CJK bigrams left out: many cross
   * word boundaries and carry no subject) and the subjects of `hits`.
   */
  support(terms: QueryTerms, hits: readonly { readonly index: number }[]): number {
    const ownTerms: string[] = [];
    const indexIdOf = new Map<string, number>();
    for (let at = 0; at < terms.terms.length; at += 1) {
      const term = terms.terms[at] as string;
      if (!OWN_ORIGINS.has(terms.origins[at] as TermOrigin) || isCjk(term)) continue;
      ownTerms.push(term);
      indexIdOf.set(term, terms.ids[at] as number);
    }
    const tools = hits.map(({ index: doc }) => {
      const subject = this.#subjectOf(doc);
      return {
        has: (term: string) => {
          const id = indexIdOf.get(term);
          return id !== undefined && holds(subject.termIds, id);
        },
        vector: subject.vector,
      };
    });
    return contextSupport(ownTerms, tools);
  }

  #subjectOf(doc: number): ToolSubject {
    const kept = this.#subjects.get(doc);
    if (kept !== undefined) return kept;
    if (this.#subjects.size >= MAX_SUBJECTS) this.#subjects.clear();
    const subject = toolSubject(this.#names[doc] ?? '', this.#descriptions[doc] ?? '', this.#termId);
    this.#subjects.set(doc, subject);
    return subject;
  }
}
