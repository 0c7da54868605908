import type { Bm25Index } from './bm25-index';
import { SUBSTRING_CONFIDENCE, type SearchAnswer, type SearchHit } from './search-types';

/**
 * Tools whose model-facing or original name contains the query text (spaces read as `_`, `-` or
 * nothing): the fallback when no query word occurs in any tool (seed 000: "hub" finds GitHub's).
 */
export function substringHits(index: Bm25Index, lower: string, limit: number): SearchHit[] {
  const needles = [
    ...new Set([lower, lower.replace(/\s+/g, '_'), lower.replace(/\s+/g, '-'), lower.replace(/\s+/g, '')]),
  ];
  if (needles.every((needle) => needle.length < 2)) return [];
  const hits: SearchHit[] = [];
  const { names, originalNames, documents } = index;
  for (let id = 0; id < names.length && hits.length < limit; id += 1) {
    const name = names[id] ?? '';
    const original = originalNames[id] ?? '';
    if (needles.some((needle) => name.includes(needle) || original.includes(needle))) {
      hits.push({ index: id, name: documents[id]?.name ?? '', score: 0, reason: 'substring' });
    }
  }
  return hits;
}

/**
 * The answer to a request none of whose words any tool has: its exact-name hits if it named a
 * tool, else the tools whose names contain its text (`substringHits`).
 */
export function fallbackAnswer(index: Bm25Index, hits: SearchHit[], lower: string, limit: number): SearchAnswer {
  if (hits.length > 0) return { hits, confidence: 1, nearest: [] };
  const named = substringHits(index, lower, limit);
  return { hits: named, confidence: named.length > 0 ? SUBSTRING_CONFIDENCE : 0, nearest: [] };
}
