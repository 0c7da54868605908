import { analyze } from './analyzer';
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
 */
export class Bm25Index {
  readonly documents: readonly SearchDocument[];
  /** term → id */
  readonly #terms = new Map<string, number>();
  /** Per term id: document ids (ascending) and their score contributions. */
  readonly #postingDocs: Int32Array[] = [];
  readonly #postingScores: Float32Array[] = [];
  readonly #idf: Float64Array;
  /** Per document: the term ids of its name field (for the name-coverage reward). */
  readonly #nameTerms: Int32Array[];
  /** Lowercased model-facing and original names, for exact-name and substring matching. */
  readonly names: readonly string[];
  readonly originalNames: readonly string[];
  /** ln(1 + (N + 0.5) / 0.5): the IDF a term no document contains would have. */
  readonly maxIdf: number;

  constructor(documents: readonly SearchDocument[], options: IndexOptions = DEFAULT_INDEX_OPTIONS) {
    const { fields, k1 } = options;
    this.documents = documents;
    const count = documents.length;
    const lengths: Record<FieldName, Float64Array> = Object.fromEntries(
      FIELD_NAMES.map((field) => [field, new Float64Array(count)]),
    ) as Record<FieldName, Float64Array>;
    // term id → flat list of [doc, field index, tf] triples, collected document by document.
    const raw: number[][] = [];
    const nameTerms: Int32Array[] = [];
    documents.forEach((doc, docId) => {
      const texts = fieldTexts(doc);
      const names = new Set<number>();
      FIELD_NAMES.forEach((field, fieldIndex) => {
        const terms = analyze(texts[field]);
        lengths[field][docId] = terms.length;
        const tf = new Map<number, number>();
        for (const term of terms) {
          let id = this.#terms.get(term);
          if (id === undefined) {
            id = this.#terms.size;
            this.#terms.set(term, id);
            raw.push([]);
          }
          tf.set(id, (tf.get(id) ?? 0) + 1);
          if (field === 'name') names.add(id);
        }
        for (const [id, n] of tf) raw[id]?.push(docId, fieldIndex, n);
      });
      nameTerms.push(Int32Array.from(names));
    });
    this.#nameTerms = nameTerms;
    const averages = FIELD_NAMES.map((field) => {
      let sum = 0;
      for (const length of lengths[field]) sum += length;
      return Math.max(sum / Math.max(count, 1), 1);
    });
    this.maxIdf = Math.log(1 + (count + 0.5) / 0.5);
    this.#idf = new Float64Array(raw.length);
    raw.forEach((triples, termId) => {
      const docs: number[] = [];
      const tfs: number[] = [];
      for (let i = 0; i < triples.length; i += 3) {
        const docId = triples[i] ?? 0;
        const fieldIndex = triples[i + 1] ?? 0;
        const tf = triples[i + 2] ?? 0;
        const field = FIELD_NAMES[fieldIndex] ?? 'description';
        const { weight, b } = fields[field];
        const norm = 1 - b + (b * (lengths[field][docId] ?? 0)) / (averages[fieldIndex] ?? 1);
        const weighted = (weight * tf) / norm;
        if (docs[docs.length - 1] === docId) tfs[tfs.length - 1] = (tfs[tfs.length - 1] ?? 0) + weighted;
        else {
          docs.push(docId);
          tfs.push(weighted);
        }
      }
      const df = docs.length;
      const idf = Math.log(1 + (count - df + 0.5) / (df + 0.5));
      this.#idf[termId] = idf;
      this.#postingDocs[termId] = Int32Array.from(docs);
      this.#postingScores[termId] = Float32Array.from(tfs, (tf) => (idf * tf * (k1 + 1)) / (tf + k1));
    });
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

  idf(termId: number): number {
    return this.#idf[termId] ?? 0;
  }

  postings(termId: number): { docs: Int32Array; scores: Float32Array } {
    return {
      docs: this.#postingDocs[termId] ?? new Int32Array(0),
      scores: this.#postingScores[termId] ?? new Float32Array(0),
    };
  }

  /** The score contribution of a term to one document (0 when the document lacks it). */
  contribution(termId: number, docId: number): number {
    const docs = this.#postingDocs[termId];
    const scores = this.#postingScores[termId];
    if (docs === undefined || scores === undefined) return 0;
    let low = 0;
    let high = docs.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const value = docs[middle] ?? 0;
      if (value === docId) return scores[middle] ?? 0;
      if (value < docId) low = middle + 1;
      else high = middle - 1;
    }
    return 0;
  }

  nameTerms(docId: number): Int32Array {
    return this.#nameTerms[docId] ?? new Int32Array(0);
  }

  /** Bytes held by the typed arrays of the index (the term map and documents are not counted). */
  get postingBytes(): number {
    let bytes = this.#idf.byteLength;
    for (const docs of this.#postingDocs) bytes += docs.byteLength;
    for (const scores of this.#postingScores) bytes += scores.byteLength;
    for (const names of this.#nameTerms) bytes += names.byteLength;
    return bytes;
  }
}
