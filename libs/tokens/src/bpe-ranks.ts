import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * tiktoken's merge ranks for an encoding, read from the rank files the tiktoken package ships
 * (`tiktoken/encoders/<name>.json`): byte sequence (as a latin1 string) → rank.
 */
export function loadRanks(encoding: string): Map<string, number> {
  const data = require(`tiktoken/encoders/${encoding}.json`) as { bpe_ranks: string };
  const ranks = new Map<string, number>();
  // Each line: a marker, the rank of its first token, then base64 tokens with consecutive ranks.
  for (const line of data.bpe_ranks.split('\n')) {
    if (line === '') continue;
    const parts = line.split(' ');
    const offset = Number(parts[1]);
    for (let i = 2; i < parts.length; i += 1) ranks.set(atob(parts[i] ?? ''), offset + i - 2);
  }
  return ranks;
}

/** Ranks of every two-byte token, indexed by `first * 256 + second` (-1: not a token). */
export function pairRankTable(ranks: ReadonlyMap<string, number>): Int32Array {
  const table = new Int32Array(65_536).fill(-1);
  for (const [bytes, rank] of ranks) {
    if (bytes.length === 2) table[bytes.charCodeAt(0) * 256 + bytes.charCodeAt(1)] = rank;
  }
  return table;
}

// Scratch space for the merge loop, grown on demand (pieces longer than this go to WASM anyway).
let starts = new Int32Array(128);
let pairRanks = new Float64Array(128);

/**
 * The number of tokens byte-pair encoding gives one piece (bytes as a latin1 string), following
 * tiktoken's merge procedure exactly: repeatedly merge the adjacent pair whose joined bytes have
 * the lowest rank (the leftmost on ties) until no pair has a rank.
 */
export function bpeTokenCount(bytes: string, ranks: ReadonlyMap<string, number>, pairs: Int32Array): number {
  const length = bytes.length;
  if (length <= 1) return length;
  if (ranks.has(bytes)) return 1;
  if (starts.length < length + 1) {
    starts = new Int32Array(length + 1);
    pairRanks = new Float64Array(length + 1);
  }
  // parts: starts[0..parts]; pairRanks[i] = rank of part i joined with part i + 1.
  let parts = length + 1;
  for (let i = 0; i <= length; i += 1) starts[i] = i;
  for (let i = 0; i < length - 1; i += 1) {
    const rank = pairs[bytes.charCodeAt(i) * 256 + bytes.charCodeAt(i + 1)] ?? -1;
    pairRanks[i] = rank < 0 ? Infinity : rank;
  }
  pairRanks[length - 1] = Infinity;
  pairRanks[length] = Infinity;
  const rankAfterMerge = (i: number): number =>
    i + 3 < parts ? (ranks.get(bytes.slice(starts[i], starts[i + 3])) ?? Infinity) : Infinity;
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
    if (at > 0) pairRanks[at - 1] = rankAfterMerge(at - 1);
    pairRanks[at] = rankAfterMerge(at);
    starts.copyWithin(at + 1, at + 2, parts);
    pairRanks.copyWithin(at + 1, at + 2, parts);
    parts -= 1;
  }
  return parts - 1;
}
