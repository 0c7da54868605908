import fc from 'fast-check';

const NASTY = ['<|endoftext|>', '\ud800', '__proto__', 'constructor', '', '   '];

/**
 * Strings a hostile caller might send: random text, special-token text, a lone surrogate,
 * prototype keys, blanks, long strings (up to `longest` characters), plus `extra` values that
 * mean something to the code under test (tool names, session ids).
 */
export function hostileStrings(extra: readonly string[] = [], longest = 5000): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme', maxLength: 50 }),
    fc.constantFrom(...NASTY, ...extra),
    fc.string({ minLength: Math.min(1000, longest), maxLength: longest }),
  );
}

/**
 * Any JSON value, built from `strings`, numbers, booleans and null, nested in arrays and objects
 * whose keys include `keys` (the names the code under test looks for) and prototype keys.
 */
export function hostileJson(
  strings: fc.Arbitrary<string>,
  keys: readonly string[] = [],
  maxItems = 20,
): fc.Arbitrary<unknown> {
  return fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      strings,
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: maxItems }),
      fc.dictionary(fc.oneof(strings, fc.constantFrom('__proto__', 'constructor', ...keys)), tie('value'), {
        maxKeys: 8,
      }),
    ),
  })).value;
}
