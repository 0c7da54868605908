import { wordTerms, words } from './analyzer';
import type { SearchDocument } from './search-document';

/** The fields a document is indexed under, with their BM25F weights and length normalisation. */
export type FieldName = 'name' | 'label' | 'description' | 'parameters' | 'parameterDocs' | 'tags' | 'source';
export type FieldWeights = Readonly<Record<FieldName, { readonly weight: number; readonly b: number }>>;
export const FIELDS: FieldWeights = {
  name: { weight: 3, b: 0.5 },
  label: { weight: 1.5, b: 0.3 },
  description: { weight: 1, b: 0.75 },
  parameters: { weight: 0.6, b: 0.5 },
  parameterDocs: { weight: 0.5, b: 0.75 },
  tags: { weight: 1.5, b: 0.3 },
  source: { weight: 0.3, b: 0.75 },
};
const FIELD_NAMES: readonly FieldName[] = [
  'name',
  'label',
  'description',
  'parameters',
  'parameterDocs',
  'tags',
  'source',
];

/** BM25 saturation. */
export const K1 = 1.2;

/** How the index weighs fields and saturates term frequency. */
export interface IndexOptions {
  readonly fields: FieldWeights;
  readonly k1: number;
}
export const DEFAULT_INDEX_OPTIONS: IndexOptions = { fields: FIELDS, k1: K1 };

/** The text of each field of a document, as the analyzer sees it. */
export function fieldTexts(doc: SearchDocument): Record<FieldName, string> {
  return {
    // Both names: the model-facing one carries the source's slug, which measurably helps ranking.
    name: doc.originalName === doc.name ? doc.name : `${doc.originalName} ${doc.name}`,
    label: doc.label,
    description: doc.description,
    parameters: doc.parameters.join(' '),
    parameterDocs: doc.parameterDocs,
    tags: doc.tags.join(' '),
    source: doc.sourceDescription,
  };
}

/**
 * A compact BM25F index. Everything that does not depend on the query is computed at build time:
 * each posting stores the term's full contribution to the document's score (IDF times the
 * saturated, field-weighted term frequency), so a query only adds numbers from typed arrays.
 * Postings sit in one flat array per kind (CSR layout): term `t` owns the slots from `start[t]`,
 * `length[t]` of them, in ascending document order.
 */
export class Bm25Index {
  readonly documents: readonly SearchDocument[];
  /** term → id */
  readonly #terms = new Map<string, number>();
  readonly #start: Int32Array;
  readonly #length: Int32Array;
  readonly #docs: Int32Array;
  readonly #scores: Float32Array;
  readonly #idf: Float64Array;
  /** Per document: the term ids of its name field (for the name-coverage reward), CSR as well. */
  readonly #nameStart: Int32Array;
  readonly #nameTerms: Int32Array;
  /** Lowercased model-facing and original names, for exact-name and substring matching. */
  readonly names: readonly string[];
  readonly originalNames: readonly string[];
  /** ln(1 + (N + 0.5) / 0.5): the IDF a term no document contains would have. */
  readonly maxIdf: number;

  constructor(documents: readonly SearchDocument[], options: IndexOptions = DEFAULT_INDEX_OPTIONS) {
    const { fields, k1 } = options;
    this.documents = documents;
    const count = documents.length;
    const fieldCount = FIELD_NAMES.length;
    const lengths = new Float64Array(count * fieldCount);
    // One entry per distinct (document, field, term): collected in document order.
    const entries = new Entries(count * 16);
    const nameStart = new Int32Array(count + 1);
    const nameTerms: number[] = [];
    // Term frequencies of the field being counted: a dense scratch array plus the ids it touched.
    const tf: number[] = [];
    const touched: number[] = [];
    // Raw word → its term ids, for this build: most words repeat, so most tokens cost one lookup.
    const wordIds = new Map<string, readonly number[]>();
    const idsOf = (word: string): readonly number[] => {
      let ids = wordIds.get(word);
      if (ids === undefined) {
        ids = wordTerms(word).map((term) => {
          let id = this.#terms.get(term);
          if (id === undefined) {
            id = this.#terms.size;
            this.#terms.set(term, id);
            tf.push(0);
          }
          return id;
        });
        wordIds.set(word, ids);
      }
      return ids;
    };
    /** Counts a text's terms into `tf`/`touched`; returns its length in terms. */
    const tally = (text: string): number => {
      let length = 0;
      for (const word of words(text)) {
        for (const id of idsOf(word)) {
          if (tf[id] === 0) touched.push(id);
          tf[id] = (tf[id] ?? 0) + 1;
          length += 1;
        }
      }
      return length;
    };
    // The source label and description are the same for every tool of a server: count them once,
    // as flat [id, count, id, count, …].
    const sharedCounts = new Map<string, { counts: Int32Array; length: number }>();
    const shared = (text: string) => {
      let counted = sharedCounts.get(text);
      if (counted === undefined) {
        const length = tally(text);
        const counts = new Int32Array(touched.length * 2);
        touched.forEach((id, i) => {
          counts[2 * i] = id;
          counts[2 * i + 1] = tf[id] ?? 0;
          tf[id] = 0;
        });
        touched.length = 0;
        counted = { counts, length };
        sharedCounts.set(text, counted);
      }
      return counted;
    };
    for (let docId = 0; docId < count; docId += 1) {
      const texts = fieldTexts(documents[docId] as SearchDocument);
      nameStart[docId] = nameTerms.length;
      for (let fieldIndex = 0; fieldIndex < fieldCount; fieldIndex += 1) {
        const field = FIELD_NAMES[fieldIndex] as FieldName;
        if (field === 'label' || field === 'source') {
          const { counts, length } = shared(texts[field]);
          lengths[docId * fieldCount + fieldIndex] = length;
          for (let i = 0; i < counts.length; i += 2)
            entries.push(counts[i] as number, docId, fieldIndex, counts[i + 1] as number);
          continue;
        }
        lengths[docId * fieldCount + fieldIndex] = tally(texts[field]);
        for (const id of touched) {
          entries.push(id, docId, fieldIndex, tf[id] ?? 0);
          tf[id] = 0;
          if (field === 'name') nameTerms.push(id);
        }
        touched.length = 0;
      }
    }
    nameStart[count] = nameTerms.length;
    this.#nameStart = nameStart;
    this.#nameTerms = Int32Array.from(nameTerms);

    const averages = new Float64Array(fieldCount);
    for (let docId = 0; docId < count; docId += 1) {
      for (let f = 0; f < fieldCount; f += 1) averages[f] = (averages[f] ?? 0) + (lengths[docId * fieldCount + f] ?? 0);
    }
    for (let f = 0; f < fieldCount; f += 1) averages[f] = Math.max((averages[f] ?? 0) / Math.max(count, 1), 1);

    // Bucket the entries by term (counting sort), merging the fields of one document.
    const termCount = this.#terms.size;
    const capacity = new Int32Array(termCount);
    const entryTerm = entries.term;
    const entryDoc = entries.doc;
    const entryField = entries.field;
    const entryTf = entries.tf;
    const entryCount = entries.size;
    for (let e = 0; e < entryCount; e += 1) {
      const term = entryTerm[e] as number;
      capacity[term] = (capacity[term] as number) + 1;
    }
    const start = new Int32Array(termCount);
    for (let t = 1; t < termCount; t += 1) start[t] = (start[t - 1] ?? 0) + (capacity[t - 1] ?? 0);
    const length = new Int32Array(termCount);
    const docs = new Int32Array(entryCount);
    const weighted = new Float32Array(entryCount);
    const weights = FIELD_NAMES.map((field) => fields[field]);
    for (let e = 0; e < entryCount; e += 1) {
      const term = entryTerm[e] ?? 0;
      const docId = entryDoc[e] ?? 0;
      const fieldIndex = entryField[e] ?? 0;
      const { weight, b } = weights[fieldIndex] ?? { weight: 1, b: 0.75 };
      const norm = 1 - b + (b * (lengths[docId * fieldCount + fieldIndex] ?? 0)) / (averages[fieldIndex] ?? 1);
      const value = (weight * (entryTf[e] ?? 0)) / norm;
      const base = start[term] ?? 0;
      const used = length[term] ?? 0;
      if (used > 0 && docs[base + used - 1] === docId)
        weighted[base + used - 1] = (weighted[base + used - 1] ?? 0) + value;
      else {
        docs[base + used] = docId;
        weighted[base + used] = value;
        length[term] = used + 1;
      }
    }
    this.maxIdf = Math.log(1 + (count + 0.5) / 0.5);
    this.#idf = new Float64Array(termCount);
    for (let t = 0; t < termCount; t += 1) {
      const df = length[t] ?? 0;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      this.#idf[t] = idf;
      const base = start[t] ?? 0;
      for (let i = base; i < base + df; i += 1) {
        const value = weighted[i] ?? 0;
        weighted[i] = (idf * value * (k1 + 1)) / (value + k1);
      }
    }
    this.#start = start;
    this.#length = length;
    this.#docs = docs;
    this.#scores = weighted;
    this.names = documents.map((doc) => doc.name.toLowerCase());
    this.originalNames = documents.map((doc) => doc.originalName.toLowerCase());
  }

  get size(): number {
    return this.documents.length;
  }

  /** The id of a term, or undefined when no document contains it. */
  termId(term: string): number | undefined {
    return this.#terms.get(term);
  }

  /** Every (term, id) of the index. */
  terms(): IterableIterator<[string, number]> {
    return this.#terms.entries();
  }

  idf(termId: number): number {
    return this.#idf[termId] ?? 0;
  }

  /** How many documents contain a term. */
  documentFrequency(termId: number): number {
    return this.#length[termId] ?? 0;
  }

  /**
   * Where a term's postings start in `postingDocs` / `postingScores`; they run for
   * `documentFrequency(termId)` entries in ascending document order. The query path reads the flat
   * arrays directly: a pair of views per term and query was measurable garbage.
   */
  postingStart(termId: number): number {
    return this.#start[termId] ?? 0;
  }

  /** Every term's postings back to back: document ids, and the BM25F contribution to each. */
  get postingDocs(): Int32Array {
    return this.#docs;
  }

  get postingScores(): Float32Array {
    return this.#scores;
  }

  /** The score contribution of a term to one document (0 when the document lacks it). */
  contribution(termId: number, docId: number): number {
    let low = this.#start[termId] ?? 0;
    let high = low + (this.#length[termId] ?? 0) - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = this.#docs[middle] ?? 0;
      if (value === docId) return this.#scores[middle] ?? 0;
      if (value < docId) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }

  nameTerms(docId: number): Int32Array {
    return this.#nameTerms.subarray(this.#nameStart[docId] ?? 0, this.#nameStart[docId + 1] ?? 0);
  }

  /** The share of a document's name terms whose ids are marked (non-zero) in `marks`; 0 without a name term. */
  nameShare(docId: number, marks: Uint8Array): number {
    const from = this.#nameStart[docId] ?? 0;
    const to = this.#nameStart[docId + 1] ?? 0;
    let shared = 0;
    for (let i = from; i < to; i += 1) shared += marks[this.#nameTerms[i] as number] as number;
    return to > from ? shared / (to - from) : 0;
  }

  /** How many distinct terms the index holds (term ids run from 0 to this, exclusive). */
  get termCount(): number {
    return this.#idf.length;
  }

  /** Bytes held by the typed arrays of the index (the term map and documents are not counted). */
  get postingBytes(): number {
    return (
      this.#idf.byteLength +
      this.#start.byteLength +
      this.#length.byteLength +
      this.#docs.byteLength +
      this.#scores.byteLength +
      this.#nameStart.byteLength +
      this.#nameTerms.byteLength
    );
  }
}

/** The build's (term, document, field, frequency) entries in growable typed arrays. */
class Entries {
  term: Int32Array;
  doc: Int32Array;
  field: Uint8Array;
  tf: Int32Array;
  size = 0;

  constructor(capacity: number) {
    this.term = new Int32Array(capacity);
    this.doc = new Int32Array(capacity);
    this.field = new Uint8Array(capacity);
    this.tf = new Int32Array(capacity);
  }

  push(term: number, doc: number, field: number, tf: number): void {
    if (this.size === this.term.length) this.#grow();
    const at = this.size++;
    this.term[at] = term;
    this.doc[at] = doc;
    this.field[at] = field;
    this.tf[at] = tf;
  }

  #grow(): void {
    const capacity = Math.max(1024, this.term.length * 2);
    const grow = <T extends Int32Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.term = grow(this.term, new Int32Array(capacity));
    this.doc = grow(this.doc, new Int32Array(capacity));
    this.field = grow(this.field, new Uint8Array(capacity));
    this.tf = grow(this.tf, new Int32Array(capacity));
  }
}
