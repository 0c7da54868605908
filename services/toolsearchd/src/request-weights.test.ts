import { describe, expect, it } from 'vitest';
import { bridgeCallWeight, dispatchWeight, queryWeight, REQUEST_WEIGHTS } from './request-weights';

const search = (queries: unknown) => ({ id: 'c', name: 'tool_search', arguments: { queries } });

describe('dispatchWeight', () => {
  it('counts a model turn as the work of its calls', () => {
    const weigh = REQUEST_WEIGHTS.sessionsDispatch as (payload: unknown) => number;
    expect(weigh({ calls: [search(['a', 'b'])] })).toBe(2);
    expect(dispatchWeight({ calls: [{ id: 'a', name: 'github__create_issue', arguments: {} }] })).toBe(1);
    expect(
      dispatchWeight({ calls: [search(['a', 'b', 'c']), { id: 'd', name: 'tool_describe', arguments: {} }] }),
    ).toBe(4);
    // The turn the attack review sent: 64 searches of 7 queries counted 1; now 448.
    const seven = Array.from({ length: 7 }, (_, at) => `query ${at}`);
    expect(dispatchWeight({ calls: Array.from({ length: 64 }, () => search(seven)) })).toBe(448);
    // 64 tool_calls of 16 entries run 1,024 tools.
    const entries = Array.from({ length: 16 }, (_, at) => ({ name: `t${at}`, arguments: {} }));
    const calls = Array.from({ length: 64 }, (_, at) => ({
      id: `${at}`,
      name: 'tool_call',
      arguments: { calls: entries },
    }));
    expect(dispatchWeight({ calls })).toBe(1024);
  });

  it('counts what the bridge would run: blanks dropped, caps applied, refusals cheap', () => {
    expect(bridgeCallWeight('tool_search', { queries: ['a', ' ', null, 'b'] })).toBe(2);
    // More queries than the bridge takes: it refuses the call and runs none.
    expect(bridgeCallWeight('tool_search', { queries: Array.from({ length: 500 }, () => 'q') })).toBe(1);
    expect(bridgeCallWeight('tool_search', { queries: Array.from({ length: 7 }, () => 'q') })).toBe(7);
    // JSON text as deep as a deployment may let the bridge follow is read, not taken as refused...
    const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
    expect(bridgeCallWeight('tool_search', `{"queries": ["a", "b"], "x": ${nested(500)}}`)).toBe(2);
    const entries = Array.from({ length: 16 }, () => ({ name: 't', arguments: {} }));
    expect(
      bridgeCallWeight('tool_call', { calls: JSON.stringify(entries).replace('{}', `{"x": ${nested(500)}}`) }),
    ).toBe(16);
    // ...and deeper than any deployment allows counts the most the bridge could run.
    expect(bridgeCallWeight('tool_search', `{"queries": ["a"], "x": ${nested(1100)}}`)).toBe(7);
    expect(bridgeCallWeight('tool_call', `{"calls": [], "x": ${nested(1100)}}`)).toBe(16);
    expect(bridgeCallWeight('tool_search', '{"query": "weather"}')).toBe(1);
    expect(bridgeCallWeight('tool_search', 'not json')).toBe(1);
    expect(bridgeCallWeight('tool_call', { calls: 'not json' })).toBe(1);
    expect(bridgeCallWeight('tool_call', { name: 'github__create_issue', arguments: {} })).toBe(1);
    // Too many entries: the bridge refuses the call without running any.
    expect(bridgeCallWeight('tool_call', { calls: Array.from({ length: 40 }, () => ({ name: 'x' })) })).toBe(1);
    // Malformed turns count 1 (the schema refuses them).
    for (const payload of [null, {}, { calls: 'x' }, { calls: [] }]) expect(dispatchWeight(payload)).toBe(1);
  });

  it('weighs the costliest turn a payload can hold in bounded time', () => {
    // Within the default 1 MiB payload: 64 tool_calls, each its 16 entries as JSON text of ~15 KB.
    // The bridge parses all of it anyway; weighing reads it once more (measured 26 ms).
    const entries = JSON.stringify({
      calls: Array.from({ length: 16 }, () => ({ name: 'github__create_issue', arguments: { body: 'x'.repeat(900) } })),
    });
    const payload = {
      calls: Array.from({ length: 64 }, (_, at) => ({ id: `${at}`, name: 'tool_call', arguments: entries })),
    };
    expect(JSON.stringify(payload).length).toBeLessThan(1024 * 1024);
    const started = performance.now();
    expect(dispatchWeight(payload)).toBe(1024);
    expect(performance.now() - started).toBeLessThan(250);
  });

  it('counts a long query as several: 1 per 200 characters as the bridge reads it, at most 5', () => {
    expect(queryWeight('github create pull request')).toBe(1);
    expect(queryWeight('x'.repeat(201))).toBe(2);
    // The bridge searches the first 1,000 characters.
    expect(queryWeight('y'.repeat(100_000))).toBe(5);
    const long = 'a request that goes on and on '.repeat(40);
    expect(bridgeCallWeight('tool_search', { queries: [long, 'short'] })).toBe(queryWeight(long) + 1);
    expect(bridgeCallWeight('tool_search', JSON.stringify({ query: long }))).toBe(queryWeight(long));
    // A list item that is not a string is searched as its JSON text.
    const object = { words: Array.from({ length: 100 }, (_, at) => `word${at}`) };
    expect(bridgeCallWeight('tool_search', { queries: [object] })).toBe(queryWeight(JSON.stringify(object)));
    const searchWeight = REQUEST_WEIGHTS.sessionsSearch as (payload: unknown) => number;
    expect(searchWeight({ queries: [long, long] })).toBe(2 * queryWeight(long));
    // A bare string is one query, as the bridge reads it.
    expect(searchWeight({ queries: long })).toBe(queryWeight(long));
    expect(searchWeight({ queries: 42 })).toBe(1);
  });
});
