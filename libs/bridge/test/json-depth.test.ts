import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createBridgeSession,
  handleToolCall,
  handleToolSearch,
  jsonDepthWithin,
  normalizeCallEntries,
  parseJsonWithin,
  valueDepthWithin,
} from '../src/index';
import { issueSession } from './bridge-fixture';

/** Depth by the obvious recursive definition (only for the small values the properties build). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('jsonDepthWithin', () => {
  it('agrees with the depth of the parsed value, on text and on UTF-8 bytes', () => {
    fc.assert(
      fc.property(fc.json({ depthSize: 'medium' }), fc.integer({ min: 0, max: 12 }), (text, max) => {
        const within = depthOf(JSON.parse(text)) <= max;
        expect(jsonDepthWithin(text, max)).toBe(within);
        expect(jsonDepthWithin(new TextEncoder().encode(text), max)).toBe(within);
      }),
      { seed: 17, numRuns: 500 },
    );
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    const text = JSON.stringify({ a: '[[[{{{\\"[[[', b: '\u202e\u0000\ud800[' });
    expect(jsonDepthWithin(text, 1)).toBe(true);
    expect(jsonDepthWithin('{"a":"\\\\"}', 1)).toBe(true);
    expect(jsonDepthWithin('{"a":"\\\\",[]}', 1)).toBe(false);
  });

  it('refuses 100,000 levels in one linear pass', () => {
    const text = nested(100_000);
    const started = performance.now();
    expect(jsonDepthWithin(text, 64)).toBe(false);
    expect(jsonDepthWithin(text, 100_000)).toBe(true);
    expect(performance.now() - started).toBeLessThan(100);
  });
});

describe('valueDepthWithin', () => {
  it('measures values too deep for recursive walkers without overflowing', () => {
    let value: unknown = [];
    for (let level = 1; level < 200_000; level += 1) value = { a: value };
    expect(valueDepthWithin(value, 64)).toBe(false);
    expect(valueDepthWithin({ a: [1, { b: null }] }, 3)).toBe(true);
    expect(valueDepthWithin({ a: [1, { b: null }] }, 2)).toBe(false);
    expect(valueDepthWithin('text', 0)).toBe(true);
  });
});

describe('bridge parsing of JSON text in arguments', () => {
  it('refuses JSON text nested deeper than the bound instead of overflowing the stack', () => {
    expect(parseJsonWithin(nested(10_000), 64)).toMatchObject({ ok: false, message: expect.stringMatching(/64/) });
    expect(normalizeCallEntries(`{"calls":${nested(10_000)}}`)).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGUMENTS' },
    });
  });

  it("uses the session's bound for tool_call and tool_search arguments", () => {
    const base = issueSession();
    const strict = createBridgeSession(base.table, base.config, { maxJsonDepth: 2 });
    const call = JSON.stringify({ calls: [{ name: 'nope', arguments: { a: { b: {} } } }] });
    expect(handleToolCall(strict, call)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(handleToolCall(base, call)).toMatchObject({ ok: true });
    const search = JSON.stringify({ queries: [[['deep']]] });
    expect(handleToolSearch(strict, search)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
  });
});
