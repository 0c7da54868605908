import { describe, expect, it } from 'vitest';
import { bpeTokenCountLong, countLongPiece, EXACT_PIECE_BYTES } from './bpe-heap';
import { bpeTokenCount, RankTable } from './bpe-ranks';
import { tokenCounter } from './token-counter';

const latin1 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');
// Characters that form one long pre-tokenizer piece when repeated, in 1 to 4 UTF-8 bytes.
const UNITS = ['a', 'x', '[', '\\', '"', 'é', '\u200b', '\u202e', '\ufeff', '𝕏', 'ab', 'abc ', 'ünï'];

describe('bpeTokenCountLong', () => {
  it('merges exactly as tiktoken does, on runs and on random letters', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const table = RankTable.load(encoding);
      const counter = tokenCounter(encoding);
      for (const unit of UNITS) {
        for (const repeat of [1, 7, 40, 333, 2000]) {
          const bytes = latin1(unit.repeat(repeat));
          expect(bpeTokenCountLong(bytes, table), `${unit} × ${repeat}`).toBe(bpeTokenCount(bytes, table));
        }
      }
      let seed = 17;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
      for (let sample = 0; sample < 30; sample += 1) {
        const word = Array.from({ length: 200 + Math.floor(next() * 3000) }, () =>
          String.fromCharCode(97 + Math.floor(next() * 26)),
        ).join('');
        expect(bpeTokenCountLong(word, table), word.slice(0, 40)).toBe(counter.countDirect(word));
      }
    }
    // Loads both encodings' rank tables and runs tiktoken on every case: seconds on a busy machine.
  }, 60_000);
});

describe('countLongPiece', () => {
  const table = RankTable.load('o200k_base');

  it('is exact up to EXACT_PIECE_BYTES, and within 1 % past it', () => {
    const exact = latin1('\u200b'.repeat(EXACT_PIECE_BYTES / 3));
    expect(countLongPiece(exact, table)).toBe(bpeTokenCountLong(exact, table));
    for (const unit of ['\u200b', 'a', '𝕏', 'abcdefghij']) {
      const bytes = latin1(unit.repeat(Math.ceil((3 * EXACT_PIECE_BYTES) / unit.length)));
      const whole = bpeTokenCountLong(bytes, table);
      expect(Math.abs(countLongPiece(bytes, table) - whole) / whole, unit).toBeLessThan(0.01);
    }
  });

  // Linear, not quadratic: a second on a busy shared machine at most (about 20 ms when idle).
  it('counts a megabyte piece in well under a second (tiktoken takes minutes)', () => {
    for (const unit of ['\u200b', 'a', '[', '𝕏']) {
      const text = JSON.stringify({ description: unit.repeat(Math.floor(1_000_000 / latin1(unit).length)) });
      const started = performance.now();
      expect(tokenCounter('o200k_base').count(text)).toBeGreaterThan(1000);
      expect(performance.now() - started, unit).toBeLessThan(1000);
    }
  });
});
