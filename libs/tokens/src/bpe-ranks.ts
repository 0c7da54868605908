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

/**
 * The number of tokens byte-pair encoding gives one piece (bytes as a latin1 string), following
 * tiktoken's merge procedure exactly: repeatedly merge the adjacent pair whose joined bytes have
 * the lowest rank (the leftmost on ties) until no pair has a rank.
 */
export function bpeTokenCount(bytes: string, ranks: ReadonlyMap<string, number>): number {
  if (bytes.length <= 1 || ranks.has(bytes)) return bytes.length === 0 ? 0 : 1;
  // starts[i]: where part i begins; pairRank[i]: rank of part i joined with part i + 1.
  const starts: number[] = [];
  const pairRank: number[] = [];
  for (let i = 0; i <= bytes.length; i += 1) starts.push(i);
  for (let i = 0; i < bytes.length - 1; i += 1) pairRank.push(ranks.get(bytes.slice(i, i + 2)) ?? Infinity);
  pairRank.push(Infinity, Infinity);
  const rankAfterMerge = (i: number): number =>
    i + 3 < starts.length ? (ranks.get(bytes.slice(starts[i], starts[i + 3])) ?? Infinity) : Infinity;
  for (;;) {
    let best = Infinity;
    let at = -1;
    for (let i = 0; i < starts.length - 2; i += 1) {
      const rank = pairRank[i] ?? Infinity;
      if (rank < best) {
        best = rank;
        at = i;
      }
    }
    if (at < 0) break;
    if (at > 0) pairRank[at - 1] = rankAfterMerge(at - 1);
    pairRank[at] = rankAfterMerge(at);
    starts.splice(at + 1, 1);
    pairRank.splice(at + 1, 1);
  }
  return starts.length - 1;
}
