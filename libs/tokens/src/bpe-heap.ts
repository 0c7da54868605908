import type { RankTable } from './bpe-ranks';

/**
 * Keys pack a pair's rank and the byte offset where it starts (`rank * OFFSETS + start`), so the
 * smallest key is the lowest rank, leftmost on ties — tiktoken's order — and one Float64 compares
 * both. Ranks stay below 2^18 and pieces below 2^31 bytes: the key is an exact integer.
 */
const OFFSETS = 2 ** 31;

/** Pieces up to this many bytes are merged whole, exactly as tiktoken does (at worst ~25 ms). */
export const EXACT_PIECE_BYTES = 64 * 1024;
/** Longer pieces are merged in windows of this many bytes (see `countLongPiece`). */
export const PIECE_WINDOW_BYTES = 8 * 1024;
/** Windows remembered per rank table (about 4 MB of text) before the memory starts over. */
const MAX_CACHED_WINDOWS = 512;
const windowCounts = new WeakMap<RankTable, Map<string, number>>();

/**
 * The token count of a long piece (bytes as a latin1 string, longer than a plain merge should
 * take). Up to `EXACT_PIECE_BYTES` it is exact (`bpeTokenCountLong`). A longer piece is not text
 * but a run such as a megabyte of one character in a hostile schema: it is counted in windows of
 * `PIECE_WINDOW_BYTES`, each exact, a window seen before (a run repeats) from memory. Each window
 * edge may split a token tiktoken would have kept whole, so the count can differ from tiktoken's by
 * a token or two per window (well under 1 %), in exchange for time bounded by a linear pass.
 */
export function countLongPiece(bytes: string, table: RankTable): number {
  if (bytes.length <= EXACT_PIECE_BYTES) return bpeTokenCountLong(bytes, table);
  let cache = windowCounts.get(table);
  if (cache === undefined) windowCounts.set(table, (cache = new Map()));
  let total = 0;
  for (let at = 0; at < bytes.length; at += PIECE_WINDOW_BYTES) {
    const window = bytes.slice(at, at + PIECE_WINDOW_BYTES);
    let tokens = cache.get(window);
    if (tokens === undefined) {
      tokens = bpeTokenCountLong(window, table);
      if (cache.size >= MAX_CACHED_WINDOWS) cache.clear();
      cache.set(window, tokens);
    }
    total += tokens;
  }
  return total;
}

/**
 * The number of tokens byte-pair encoding gives one long piece (bytes as a latin1 string), with the
 * same merges as tiktoken (the adjacent pair of lowest rank first, the leftmost on ties) but in
 * O(n log n): parts are a linked list and candidate pairs a binary heap, where tiktoken and
 * `bpeTokenCount` rescan every pair after each merge (O(n²)). The difference is what a hostile
 * string makes of it: 100,000 zero-width spaces in one tool description took tiktoken 60 s, a minute
 * of an event loop every tenant shares; this takes milliseconds.
 */
export function bpeTokenCountLong(bytes: string, table: RankTable): number {
  const length = bytes.length;
  if (length <= 1) return length;
  const longest = table.maxTokenBytes;
  // next[i]: where the part starting at i ends (= the next part's start); -1 once merged away.
  const next = new Int32Array(length);
  const previous = new Int32Array(length);
  const heap = new MinHeap(length);
  const rankOf = (start: number, end: number): number => (end - start > longest ? -1 : table.rank(bytes, start, end));
  for (let i = 0; i < length; i += 1) {
    next[i] = i + 1;
    previous[i] = i - 1;
  }
  for (let i = 0; i + 1 < length; i += 1) {
    const rank = table.pairs[bytes.charCodeAt(i) * 256 + bytes.charCodeAt(i + 1)] as number;
    if (rank >= 0) heap.push(rank * OFFSETS + i);
  }
  let parts = length;
  while (heap.size > 0) {
    const key = heap.pop();
    const start = key % OFFSETS;
    const rank = (key - start) / OFFSETS;
    const middle = next[start] as number;
    // Stale: the part was merged away, has no right neighbour, or its pair is not this one any more.
    if (middle < 0 || middle >= length) continue;
    const end = next[middle] as number;
    if (rankOf(start, end) !== rank) continue;
    next[start] = end;
    next[middle] = -1;
    if (end < length) previous[end] = start;
    parts -= 1;
    // The merged part's new pairs, with its right and its left neighbour.
    if (end < length) {
      const right = rankOf(start, next[end] as number);
      if (right >= 0) heap.push(right * OFFSETS + start);
    }
    const left = previous[start] as number;
    if (left >= 0) {
      const joined = rankOf(left, end);
      if (joined >= 0) heap.push(joined * OFFSETS + left);
    }
  }
  return parts;
}

/** A binary min-heap of numbers in a typed array that grows as needed. */
class MinHeap {
  #items: Float64Array;
  size = 0;

  constructor(capacity: number) {
    this.#items = new Float64Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.size === this.#items.length) {
      const grown = new Float64Array(this.#items.length * 2);
      grown.set(this.#items);
      this.#items = grown;
    }
    const items = this.#items;
    let at = this.size;
    this.size += 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if ((items[parent] as number) <= value) break;
      items[at] = items[parent] as number;
      at = parent;
    }
    items[at] = value;
  }

  pop(): number {
    const items = this.#items;
    const top = items[0] as number;
    this.size -= 1;
    const last = items[this.size] as number;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= this.size) break;
      if (child + 1 < this.size && (items[child + 1] as number) < (items[child] as number)) child += 1;
      if ((items[child] as number) >= last) break;
      items[at] = items[child] as number;
      at = child;
    }
    items[at] = last;
    return top;
  }
}
