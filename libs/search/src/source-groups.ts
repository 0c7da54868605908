import type { SearchDocument } from './search-document';

/**
 * The documents grouped by source label: each document's source id (in order of first
 * appearance), and per source its documents (`docs[starts[s]] … docs[starts[s + 1] - 1]`, in
 * document order). The engine's source boost and dense-request pool walk these.
 */
export function groupBySource(documents: readonly SearchDocument[]): {
  readonly sourceOf: Int32Array;
  readonly starts: Int32Array;
  readonly docs: Int32Array;
  readonly count: number;
} {
  const sources = new Map<string, number>();
  const sourceOf = Int32Array.from(documents, (doc) => {
    let id = sources.get(doc.label);
    if (id === undefined) {
      id = sources.size;
      sources.set(doc.label, id);
    }
    return id;
  });
  const starts = new Int32Array(sources.size + 1);
  for (const source of sourceOf) starts[source + 1] = (starts[source + 1] as number) + 1;
  for (let source = 0; source < sources.size; source += 1)
    starts[source + 1] = (starts[source + 1] as number) + (starts[source] as number);
  const fill = starts.slice(0, sources.size);
  const docs = new Int32Array(documents.length);
  sourceOf.forEach((source, doc) => (docs[(fill[source] as number)++] = doc));
  return { sourceOf, starts, docs, count: sources.size };
}
