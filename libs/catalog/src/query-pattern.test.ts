import { describe, expect, it } from 'vitest';
import { compileQueryPattern, estimateProgramSize, QUERY_PATTERN_LIMITS, type QueryPattern } from './query-pattern';

function compiled(source: string): QueryPattern {
  const result = compileQueryPattern(source);
  if (!result.ok) throw new Error(`${source} ${result.message}`);
  return result.pattern;
}

function timed<T>(run: () => T): { value: T; ms: number } {
  const start = performance.now();
  const value = run();
  return { value, ms: performance.now() - start };
}

describe('compileQueryPattern', () => {
  it('searches anywhere in the query, ignoring case', () => {
    const pattern = compiled('refund|money back');
    expect(pattern.test('I want my MONEY BACK now')).toBe(true);
    expect(pattern.test('Refunds')).toBe(true);
    expect(pattern.test('invoice')).toBe(false);
    expect(compiled('^deploy\\b').test('deploy the app')).toBe(true);
    expect(compiled('^deploy\\b').test('redeploy the app')).toBe(false);
  });

  it('answers a catastrophic pattern in linear time', () => {
    const pattern = compiled('^(a+)+$');
    const { value, ms } = timed(() => pattern.test(`${'a'.repeat(27)}!`));
    expect(value).toBe(false);
    expect(ms).toBeLessThan(50);
    expect(pattern.test('a'.repeat(27))).toBe(true);
  });

  it('answers other backtracking traps in bounded time', () => {
    for (const source of ['(a|aa)+$', '(.*a){12}$', '(x+x+)+y', '^(\\w+\\s?)*$']) {
      const pattern = compiled(source);
      const { ms } = timed(() => pattern.test(`${'a'.repeat(40)}${'x'.repeat(40)} ${'w'.repeat(40)}!`));
      expect(ms, source).toBeLessThan(50);
    }
  });

  it('reads only the first maxQueryChars characters of a query', () => {
    const pattern = compiled('needle');
    const padding = 'x'.repeat(QUERY_PATTERN_LIMITS.maxQueryChars);
    expect(pattern.test(`${padding.slice(6)}needle`)).toBe(true);
    expect(pattern.test(`${padding}needle`)).toBe(false);
  });

  it('refuses lookaround and backreferences as syntax RE2 does not have', () => {
    for (const source of ['(?=a)b', '(a)\\1', '(?<!x)y', '(']) {
      const result = compileQueryPattern(source);
      expect(result, source).toMatchObject({ ok: false, problem: 'SYNTAX' });
      if (!result.ok) expect(result.message).toMatch(/^is not a valid regular expression in RE2 syntax/);
    }
  });

  it('refuses a pattern longer than maxLength', () => {
    expect(compileQueryPattern('a'.repeat(QUERY_PATTERN_LIMITS.maxLength + 1))).toMatchObject({
      ok: false,
      problem: 'TOO_LONG',
    });
    expect(compileQueryPattern('a'.repeat(QUERY_PATTERN_LIMITS.maxLength)).ok).toBe(true);
  });

  it('refuses a pattern that compiles too large, and one far too large without compiling it', () => {
    expect(compileQueryPattern('[ab]{600}[cd]{600}')).toMatchObject({ ok: false, problem: 'TOO_LARGE' });
    // 45 × 1,000 Unicode classes: half a second to compile, refused from the text in well under.
    const { value, ms } = timed(() => compileQueryPattern('\\pL{1000}'.repeat(45)));
    expect(value).toMatchObject({ ok: false, problem: 'TOO_LARGE', size: 0 });
    expect(ms).toBeLessThan(50);
  });

  it('refuses a pattern that does not fit in what is left of its budget', () => {
    expect(compileQueryPattern('[ab]{300}', 200)).toMatchObject({ ok: false, problem: 'OVER_BUDGET' });
    expect(compileQueryPattern('[ab]{300}', 400).ok).toBe(true);
  });

  it('keeps what a thrashing pattern learns within its DFA budget and still answers right', () => {
    const pattern = compiled('a[ab]{40}z');
    let seed = 7;
    const letter = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) < 1_073_741_824 ? 'a' : 'b');
    for (let i = 0; i < 10; i++) {
      const text = Array.from({ length: 150 }, letter).join('');
      expect(pattern.test(text)).toBe(false);
      expect(pattern.test(`${text.slice(0, 100)}a${'b'.repeat(40)}z`)).toBe(true);
    }
  });
});

describe('estimateProgramSize', () => {
  it('stays at or above what RE2 compiles, for ordinary and repeated patterns', () => {
    for (const source of [
      'refund|invoice',
      '\\b(deploy|release)s?\\b',
      '[a-z]{3,20}-\\d{1,6}',
      '(?i)(x{10}){10}',
      '\\Qa.b\\E+',
      '[]a]{5}',
      '\\p{Greek}{4}',
      'a{,3}',
      '^(a+)+$',
      '(a|aa){1,100}b',
    ]) {
      expect(estimateProgramSize(source), source).toBeGreaterThanOrEqual(compiled(source).size);
    }
  });

  it('multiplies nested repeats', () => {
    expect(estimateProgramSize('((a{10}){10}){10}')).toBeGreaterThan(1000);
  });
});
