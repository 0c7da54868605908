import { describe, expect, it } from 'vitest';
import { compileGlob, globMatches } from './glob';

/** The textbook dynamic programme: slow but obviously right, the reference for random inputs. */
function reference(pattern: string, text: string): boolean {
  let row = [true, ...Array.from(text, () => false)];
  for (const p of pattern) {
    const next = [p === '*' && row[0] === true];
    for (let j = 1; j <= text.length; j++) {
      next[j] = p === '*' ? row[j] === true || next[j - 1] === true : row[j - 1] === true && text[j - 1] === p;
    }
    row = next;
  }
  return row[text.length] === true;
}

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

function word(next: () => number, alphabet: string, max: number): string {
  const length = Math.floor(next() * (max + 1));
  return Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
}

function elapsed(run: () => void): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

describe('compileGlob', () => {
  it('agrees with the reference on random patterns and texts', () => {
    const next = random(17);
    for (let i = 0; i < 20_000; i++) {
      const pattern = word(next, 'ab**', 8);
      const text = word(next, 'ab', 10);
      expect(compileGlob(pattern).matches(text), `${pattern} ~ ${text}`).toBe(reference(pattern, text));
    }
  });

  it('matches the whole text, with * as any run of characters', () => {
    expect(globMatches('github__*', 'github__create_issue')).toBe(true);
    expect(globMatches('*issue', 'github__create_issue')).toBe(true);
    expect(globMatches('*create*', 'github__create_issue')).toBe(true);
    expect(globMatches('create', 'github__create_issue')).toBe(false);
    expect(globMatches('*', '')).toBe(true);
    expect(globMatches('a*a', 'a')).toBe(false);
    expect(globMatches('ab*ba', 'aba')).toBe(false);
  });

  it('takes every other character literally', () => {
    expect(globMatches('a.b', 'axb')).toBe(false);
    expect(globMatches('a.b', 'a.b')).toBe(true);
    expect(globMatches('(x|y)+[z]?$^\\', '(x|y)+[z]?$^\\')).toBe(true);
    expect(globMatches('mcp-fs/*', 'mcp-fs/read_file')).toBe(true);
  });

  it('compares case-insensitively only when asked', () => {
    expect(globMatches('GitHub__*', 'github__create_issue')).toBe(false);
    expect(globMatches('GitHub__*', 'github__CREATE_issue', { caseInsensitive: true })).toBe(true);
  });

  it('answers catastrophic patterns in bounded time', () => {
    const glob = compileGlob('*a*a*a*a*a*a*a*a*b', { caseInsensitive: true });
    const long = 'a'.repeat(10_000);
    let result = true;
    const ms = elapsed(() => {
      result = glob.matches('a'.repeat(60)) || glob.matches(long) || glob.matches(`${'ab'.repeat(5_000)}c`);
    });
    expect(result).toBe(false);
    expect(ms).toBeLessThan(50);
    expect(glob.matches(`${long}b`)).toBe(true);
  });

  it('answers a pattern of many stars against a long text in bounded time', () => {
    const glob = compileGlob(`${'*a'.repeat(100)}*b`);
    expect(elapsed(() => expect(glob.matches('a'.repeat(5_000))).toBe(false))).toBeLessThan(50);
  });
});
