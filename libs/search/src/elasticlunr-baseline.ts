import elasticlunr from 'elasticlunr';
import type { SearchDocument } from './search-document';

interface BaselineDoc {
  id: string;
  name: string;
  label: string;
  description: string;
  parameters: string;
}

/**
 * Plain elasticlunr over the same fields, with its default pipeline (its own tokenizer, stop
 * words and Porter stemmer) and its own TF-IDF scoring: the baseline that `toolsearch eval` and
 * `toolsearch bench` compare against.
 */
export class ElasticlunrBaseline {
  readonly #index: elasticlunr.Index<BaselineDoc>;
  readonly #documents: readonly SearchDocument[];

  constructor(documents: readonly SearchDocument[]) {
    this.#documents = documents;
    this.#index = elasticlunr<BaselineDoc>(function (this: elasticlunr.Index<BaselineDoc>) {
      this.setRef('id');
      this.addField('name');
      this.addField('label');
      this.addField('description');
      this.addField('parameters');
      this.saveDocument(false);
    });
    documents.forEach((doc, id) => {
      this.#index.addDoc({
        id: String(id),
        name: doc.originalName,
        label: doc.label,
        description: doc.description,
        parameters: doc.parameters.join(' '),
      });
    });
  }

  /** Tool indexes and names of the best `limit` matches. */
  search(query: string, limit: number): { index: number; name: string; score: number }[] {
    return this.#index
      .search(query, {})
      .slice(0, limit)
      .map((result) => {
        const index = Number(result.ref);
        return { index, name: this.#documents[index]?.name ?? '', score: result.score };
      });
  }
}
