import { RE2JS, RE2JSException, RE2JSSyntaxException } from 're2js';

/**
 * Routing `when` patterns are regular expressions written by tenants and run on every query, on
 * the daemon's one thread. They run on RE2 (the pure-JavaScript `re2js`), whose matching time is
 * linear in the query: `^(a+)+$` against 27 `a`s and a `!` took 9–16 s with `RegExp` and takes well
 * under a millisecond here. Linear is not free, so the cost factors are bounded too.
 */
export const QUERY_PATTERN_LIMITS = {
  /** Characters in one pattern. */
  maxLength: 500,
  /**
   * Instructions in one compiled pattern (RE2's own measure of its cost). Matching costs up to
   * about this many steps per query character when the pattern's states explode.
   */
  maxProgramSize: 1000,
  /**
   * Instructions of every `when` pattern one config compiles, together (each runs on every query).
   * A pattern refused for its size still counts: compiling it was work.
   */
  maxConfigProgramSize: 2000,
  /** Characters of a query a pattern reads: queries are a few words, and the rest is ignored. */
  maxQueryChars: 200,
  /** Bytes of matching state (RE2's lazy DFA cache) one compiled pattern may keep (re2js: 8 MiB). */
  dfaBytes: 256 * 1024,
} as const;

/** Why a pattern was refused, as a stable code. */
export const QUERY_PATTERN_PROBLEMS = {
  /** Longer than `maxLength`. */
  TOO_LONG: 'TOO_LONG',
  /** Not RE2 syntax (lookaround and backreferences are not). */
  SYNTAX: 'SYNTAX',
  /** Compiles to more than `maxProgramSize` instructions. */
  TOO_LARGE: 'TOO_LARGE',
  /** Fits alone, but not in what is left of its config's `maxConfigProgramSize`. */
  OVER_BUDGET: 'OVER_BUDGET',
} as const;
export type QueryPatternProblem = keyof typeof QUERY_PATTERN_PROBLEMS;

/** A compiled `when` pattern: case-insensitive, unanchored (it may match anywhere in the query). */
export interface QueryPattern {
  readonly source: string;
  /** Instructions in the compiled program. */
  readonly size: number;
  /** Whether the pattern matches somewhere in the query's first `maxQueryChars` characters. */
  test(query: string): boolean;
}

export type QueryPatternResult =
  | { readonly ok: true; readonly pattern: QueryPattern }
  | {
      readonly ok: false;
      readonly problem: QueryPatternProblem;
      /** What is wrong, to follow the pattern's name in a warning. */
      readonly message: string;
      /** Instructions RE2 compiled before the pattern was refused (0 when it was refused unread). */
      readonly size: number;
    };

/**
 * Compiles a routing `when` pattern (RE2 syntax, case-insensitive), or says why it cannot be used.
 * `budget` is what its config has left of `maxConfigProgramSize`. Never throws for anything a
 * tenant can write; never runs the text through `RegExp`.
 */
export function compileQueryPattern(
  source: string,
  budget: number = QUERY_PATTERN_LIMITS.maxConfigProgramSize,
): QueryPatternResult {
  const limits = QUERY_PATTERN_LIMITS;
  if (source.length > limits.maxLength) return refuse('TOO_LONG', `is longer than ${limits.maxLength} characters`);
  const tooLarge = (compiled: number) =>
    refuse('TOO_LARGE', `compiles to more than ${limits.maxProgramSize} RE2 instructions`, compiled);
  const overBudget = (compiled: number) =>
    refuse(
      'OVER_BUDGET',
      `takes the config's when patterns over ${limits.maxConfigProgramSize} RE2 instructions together`,
      compiled,
    );
  // Compiling takes time in proportion to the program (half a second for 45,000 instructions), so
  // a pattern the estimate finds far too large is refused before RE2 sees it.
  const estimate = estimateProgramSize(source);
  if (estimate > 4 * limits.maxProgramSize) return tooLarge(0);
  if (estimate > 4 * budget) return overBudget(0);
  let engine: RE2JS;
  try {
    engine = RE2JS.compile(source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    const detail =
      error instanceof RE2JSSyntaxException
        ? `${error.getDescription()}: \`${error.getPattern() ?? ''}\``
        : error.message;
    return refuse(
      'SYNTAX',
      `is not a valid regular expression in RE2 syntax (no lookaround, no backreferences): ${detail}`,
    );
  }
  const size = engine.programSize();
  if (size > limits.maxProgramSize) return tooLarge(size);
  if (size > budget) return overBudget(size);
  // The lazy DFA keeps the states it built; a pattern whose states explode would otherwise keep
  // 8 MiB for as long as its config is cached. When the budget is spent, RE2 starts over. (These
  // are typed fields of re2js's DFA; the dependency is pinned to an exact version.)
  const dfa = engine.re2().dfa;
  dfa.maxMem = dfa.stateBudget = dfa.memBudget = limits.dfaBytes;
  const test = (query: string) =>
    engine.test(query.length > limits.maxQueryChars ? query.slice(0, limits.maxQueryChars) : query);
  return { ok: true, pattern: { source, size, test } };
}

function refuse(problem: QueryPatternProblem, message: string, size = 0): QueryPatternResult {
  return { ok: false, problem, message, size };
}

/**
 * A generous estimate of the compiled size, read from the text alone: an atom (character, escape,
 * class) counts 1; a group its contents plus 2; `|`, `*`, `+` and `?` add 1; `{n,m}` repeats what
 * it follows max(n, m) + 1 times (its size plus one). It only has to catch patterns whose size is a
 * multiple of the limit, such as `\pL{1000}` written 45 times.
 */
export function estimateProgramSize(source: string): number {
  let frame = { total: 0, last: 0 };
  const frames = [frame];
  const atom = (weight: number) => {
    frame.total += weight;
    frame.last = weight;
  };
  let at = 0;
  while (at < source.length) {
    const char = source[at];
    if (char === '\\') {
      const next = skipEscape(source, at);
      atom(next.weight);
      at = next.end;
    } else if (char === '[') {
      atom(1);
      at = skipClass(source, at);
    } else if (char === '(') {
      frame = { total: 0, last: 0 };
      frames.push(frame);
      at += 1;
    } else if (char === ')' && frames.length > 1) {
      const inner = frames.pop() ?? frame;
      frame = frames[frames.length - 1] ?? inner;
      atom(inner.total + 2);
      at += 1;
    } else if (char === '|') {
      frame.total += 1;
      frame.last = 0;
      at += 1;
    } else if (char === '*' || char === '+' || char === '?') {
      frame.total += 1;
      frame.last += 1;
      at += 1;
    } else {
      const repeat = char === '{' ? readRepeat(source, at) : undefined;
      if (repeat === undefined) {
        atom(1);
        at += 1;
      } else {
        const repeated = (frame.last + 1) * (repeat.times + 1);
        frame.total += repeated - frame.last;
        frame.last = repeated;
        at = repeat.end;
      }
    }
  }
  // Every program also has a start and a match instruction.
  return 2 + frames.reduce((sum, open) => sum + open.total, 0);
}

/** `{n}`, `{n,}` or `{n,m}` at `at`: the largest count and where it ends; undefined when literal. */
function readRepeat(source: string, at: number): { times: number; end: number } | undefined {
  let end = at + 1;
  const digits = () => {
    const start = end;
    while (end < source.length && isDigit(source.charCodeAt(end))) end += 1;
    return end > start ? Number(source.slice(start, end)) : undefined;
  };
  const min = digits();
  if (min === undefined) return undefined;
  let max = min;
  if (source[end] === ',') {
    end += 1;
    max = digits() ?? min;
  }
  if (source[end] !== '}') return undefined;
  return { times: Math.max(min, max), end: end + 1 };
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** An escape at `at`: `\Q…\E` weighs its length, anything else one atom. */
function skipEscape(source: string, at: number): { weight: number; end: number } {
  const kind = source[at + 1];
  if (kind === 'Q') {
    const close = source.indexOf('\\E', at + 2);
    const end = close < 0 ? source.length : close + 2;
    return { weight: Math.max(1, end - at - 4), end };
  }
  if ((kind === 'p' || kind === 'P' || kind === 'x') && source[at + 2] === '{') {
    const close = source.indexOf('}', at + 3);
    return { weight: 1, end: close < 0 ? source.length : close + 1 };
  }
  if (kind === 'p' || kind === 'P') return { weight: 1, end: at + 3 };
  return { weight: 1, end: Math.min(source.length, at + 2) };
}

/** A character class `[…]` at `at`: where it ends (`]` first is literal, escapes and `[:name:]` skipped). */
function skipClass(source: string, at: number): number {
  let end = at + 1;
  if (source[end] === '^') end += 1;
  if (source[end] === ']') end += 1;
  while (end < source.length && source[end] !== ']') {
    if (source[end] === '\\') end += 2;
    else if (source[end] === '[' && source[end + 1] === ':') {
      const close = source.indexOf(':]', end + 2);
      end = close < 0 ? end + 1 : close + 2;
    } else end += 1;
  }
  return end + 1;
}
