import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const BASE64_VALUES = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE64.length; i += 1) BASE64_VALUES[BASE64.charCodeAt(i)] = i;

// FNV-1a, the same over the table's byte array (when building) and over a latin1 string (when
// looking up): the two must agree bit for bit.
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const finish = (hash: number): number => (hash ^ (hash >>> 15)) >>> 0;

/** FNV-1a over the characters `text[start, end)`, each one byte (a latin1 string). */
function hashBytes(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ text.charCodeAt(i), FNV_PRIME);
  return finish(hash);
}

/**
 * tiktoken's merge ranks for one encoding, read from the rank files the tiktoken package ships
 * (`tiktoken/encoders/<name>.json`), in a form made for counting: every token's bytes back to back
 * in one array and an open-addressing table from bytes to rank. A lookup hashes a range of a latin1
 * string in place, so byte-pair merging creates no strings; a JavaScript `Map` keyed by strings was
 * both larger (about 15 MB) and several times slower for the first-time counts of a cold process.
 */
export class RankTable {
  /** Ranks of every two-byte token, indexed by `first * 256 + second` (-1: not a token). */
  readonly pairs = new Int32Array(65_536).fill(-1);
  readonly #bytes: Uint8Array;
  readonly #starts: Int32Array; // token i's bytes: #bytes[#starts[i], #starts[i + 1])
  readonly #ranks: Int32Array;
  /** Every token's bytes back to back (read by the native counter). */
  get bytes(): Uint8Array {
    return this.#bytes;
  }
  /** Where each token's bytes start in `bytes`, plus the end of the last one. */
  get starts(): Int32Array {
    return this.#starts;
  }
  /** Each token's rank, in the order of `starts`. */
  get ranks(): Int32Array {
    return this.#ranks;
  }
  readonly #slots: Int32Array; // token index + 1; 0 = empty
  readonly #mask: number;
  /** The longest token, in bytes: a longer range of bytes is never a token (no lookup needed). */
  readonly maxTokenBytes: number;

  private constructor(bytes: Uint8Array, starts: Int32Array, ranks: Int32Array) {
    this.#bytes = bytes;
    this.#starts = starts;
    this.#ranks = ranks;
    const count = ranks.length;
    let slots = 1024;
    while (slots < count * 2.5) slots *= 2;
    this.#slots = new Int32Array(slots);
    this.#mask = slots - 1;
    let longest = 0;
    for (let token = 0; token < count; token += 1) {
      const start = starts[token] as number;
      const end = starts[token + 1] as number;
      longest = Math.max(longest, end - start);
      let hash = FNV_OFFSET;
      for (let i = start; i < end; i += 1) hash = Math.imul(hash ^ (bytes[i] as number), FNV_PRIME);
      let slot = finish(hash) & this.#mask;
      while (this.#slots[slot] !== 0) slot = (slot + 1) & this.#mask;
      this.#slots[slot] = token + 1;
      if (end - start === 2)
        this.pairs[(bytes[start] as number) * 256 + (bytes[start + 1] as number)] = ranks[token] as number;
    }
    this.maxTokenBytes = longest;
  }

  /**
   * Reads an encoding's rank file. Each line holds a marker, the rank of its first token, then
   * base64 tokens with consecutive ranks.
   */
  static load(encoding: string): RankTable {
    const data = require(`tiktoken/encoders/${encoding}.json`) as { bpe_ranks: string };
    const text = data.bpe_ranks;
    const bytes = new Uint8Array(Math.ceil((text.length * 3) / 4));
    const starts: number[] = [];
    const ranks: number[] = [];
    let written = 0;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const parts = line.split(' ');
      const offset = Number(parts[1]);
      for (let i = 2; i < parts.length; i += 1) {
        starts.push(written);
        ranks.push(offset + i - 2);
        written = decodeBase64(parts[i] ?? '', bytes, written);
      }
    }
    starts.push(written);
    return new RankTable(bytes.slice(0, written), Int32Array.from(starts), Int32Array.from(ranks));
  }

  get size(): number {
    return this.#ranks.length;
  }

  /**
   * The rank of `text[start, end)` when every character in it is ASCII (so characters are bytes)
   * and the range is one token; -1 otherwise. Lets a counter take a whole piece straight from the
   * text, without cutting it out, as tiktoken itself does for a piece that is a token.
   */
  asciiRank(text: string, start: number, end: number): number {
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i += 1) {
      const code = text.charCodeAt(i);
      if (code > 0x7f) return -1;
      hash = Math.imul(hash ^ code, FNV_PRIME);
    }
    return this.#find(finish(hash), text, start, end);
  }

  /** The rank of the bytes `text[start, end)` (a latin1 string), or -1 when they are not a token. */
  rank(text: string, start: number, end: number): number {
    return this.#find(hashBytes(text, start, end), text, start, end);
  }

  #find(hash: number, text: string, start: number, end: number): number {
    const length = end - start;
    const bytes = this.#bytes;
    const starts = this.#starts;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const token = (this.#slots[slot] as number) - 1;
      if (token < 0) return -1;
      const at = starts[token] as number;
      if ((starts[token + 1] as number) - at !== length) continue;
      let i = 0;
      while (i < length && bytes[at + i] === text.charCodeAt(start + i)) i += 1;
      if (i === length) return this.#ranks[token] as number;
    }
  }
}

function decodeBase64(text: string, out: Uint8Array, at: number): number {
  let bits = 0;
  let value = 0;
  for (let i = 0; i < text.length; i += 1) {
    const digit = BASE64_VALUES[text.charCodeAt(i)] ?? -1;
    if (digit < 0) break; // padding
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at] = (value >> bits) & 0xff;
      at += 1;
    }
  }
  return at;
}

// Scratch space for the merge loop, grown on demand (pieces longer than this go to WASM anyway).
let starts = new Int32Array(128);
let pairRanks = new Float64Array(128);

/**
 * The number of tokens byte-pair encoding gives one piece (bytes as a latin1 string), following
 * tiktoken's merge procedure exactly: repeatedly merge the adjacent pair whose joined bytes have
 * the lowest rank (the leftmost on ties) until no pair has a rank.
 */
export function bpeTokenCount(bytes: string, table: RankTable): number {
  const length = bytes.length;
  const pairs = table.pairs;
  if (length <= 1) return length;
  if (length === 2) return (pairs[bytes.charCodeAt(0) * 256 + bytes.charCodeAt(1)] as number) >= 0 ? 1 : 2;
  if (table.rank(bytes, 0, length) >= 0) return 1;
  if (starts.length < length + 1) {
    starts = new Int32Array(length + 1);
    pairRanks = new Float64Array(length + 1);
  }
  // parts: starts[0..parts]; pairRanks[i] = rank of part i joined with part i + 1.
  let parts = length + 1;
  for (let i = 0; i <= length; i += 1) starts[i] = i;
  for (let i = 0; i < length - 1; i += 1) {
    const rank = pairs[bytes.charCodeAt(i) * 256 + bytes.charCodeAt(i + 1)] as number;
    pairRanks[i] = rank < 0 ? Infinity : rank;
  }
  pairRanks[length - 1] = Infinity;
  pairRanks[length] = Infinity;
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < parts - 2; i += 1) {
      const rank = pairRanks[i] as number;
      if (rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) break;
    // The merged part's new pairs: with its left neighbour and with its right neighbour.
    if (at > 0) pairRanks[at - 1] = joinedRank(bytes, table, starts[at - 1] as number, starts[at + 2] as number);
    pairRanks[at] =
      at + 3 < parts ? joinedRank(bytes, table, starts[at] as number, starts[at + 3] as number) : Infinity;
    for (let i = at + 1; i < parts - 1; i += 1) {
      starts[i] = starts[i + 1] as number;
      pairRanks[i] = pairRanks[i + 1] as number;
    }
    parts -= 1;
  }
  return parts - 1;
}

function joinedRank(bytes: string, table: RankTable, start: number, end: number): number {
  const rank = table.rank(bytes, start, end);
  return rank < 0 ? Infinity : rank;
}
