import { describe, expect, it } from 'vitest';
import { tool, toolset } from '@toolsearch/testing';
import { UsageBoosts } from '@toolsearch/search';
import { EMPTY_GROUP_HINT, handleToolSearch, MAX_QUERY_LENGTH, readLimit, requiredNames } from '../src/index';
import { issueSession, sessionOf } from './bridge-fixture';

function search(args: unknown, session = issueSession()) {
  const outcome = handleToolSearch(session, args);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}

describe('handleToolSearch', () => {
  it('answers grouped names per query plus one shared tools map', () => {
    const result = search({ queries: ['create linear issue', 'post slack message'] });
    expect(result.queries).toEqual(['create linear issue', 'post slack message']);
    expect(result.total_available).toBe(3);
    expect(result.results[0]?.matches[0]).toBe('mq-linear__mq_linear_create_issue');
    expect(result.results[1]?.matches[0]).toBe('mq-slack__mq_slack_post_message');
    const matched = new Set(result.results.flatMap((group) => group.matches));
    expect(new Set(Object.keys(result.tools))).toEqual(matched);
    expect(result.tools['mq-linear__mq_linear_create_issue']).toEqual({
      source: 'mcp',
      source_name: 'mq-linear',
      description: 'Create a new issue in a team.',
      required: ['title', 'team'],
    });
    expect(result.results.some((group) => 'available_sources' in group)).toBe(false);
  });

  it('applies the limit per query', () => {
    const result = search({ queries: ['issues', 'message'], limit: 1 });
    for (const group of result.results) expect(group.matches.length).toBeLessThanOrEqual(1);
  });

  it('adds the connected sources and a hint only to a query with no match', () => {
    const result = search({ queries: ['issues', 'zzzz nonsense qqqq'] });
    expect(result.results[0]).not.toHaveProperty('available_sources');
    expect(result.results[1]).toEqual({
      query: 'zzzz nonsense qqqq',
      matches: [],
      available_sources: [
        { name: 'mq-linear', tool_count: 2 },
        { name: 'mq-slack', tool_count: 1 },
      ],
      hint: EMPTY_GROUP_HINT,
    });
    expect(result).not.toHaveProperty('available_sources');
  });

  it('lists unavailable sources in the empty-group summary', () => {
    const session = sessionOf([
      toolset('recovery-catalog', [tool('recovery_catalog_create_record')]),
      toolset('jira', [tool('a')], { unavailable: 'reconnecting' }),
    ]);
    const [group] = search({ queries: ['unrelated vocabulary'] }, session).results;
    expect(group?.available_sources).toEqual([
      { name: 'jira', tool_count: 1, unavailable: 'reconnecting' },
      { name: 'recovery-catalog', tool_count: 1 },
    ]);
  });

  it('takes a bare string as one query and drops blank ones', () => {
    expect(search({ queries: 'post slack message' }).queries).toEqual(['post slack message']);
    expect(search({ queries: ['  ', 'issues', null, ''] }).queries).toEqual(['issues']);
    expect(search('{"queries": ["issues"]}').queries).toEqual(['issues']);
  });

  it('refuses missing, empty and too many queries with a clear error', () => {
    const session = issueSession();
    expect(handleToolSearch(session, {})).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(handleToolSearch(session, { queries: [] })).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(handleToolSearch(session, { queries: ['  ', ''] })).toMatchObject({
      ok: false,
      error: { code: 'BAD_ARGUMENTS' },
    });
    const tooMany = handleToolSearch(session, { queries: Array.from({ length: 8 }, () => 'q') });
    expect(tooMany).toMatchObject({ ok: false, error: { code: 'TOO_MANY' } });
    if (!tooMany.ok) expect(tooMany.error.message).toContain('at most 7');
    expect(handleToolSearch(session, 42)).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
  });

  it('never reaches tools outside the session', () => {
    const result = search({ queries: ['terminal', 'read file'] });
    expect(Object.keys(result.tools)).toEqual([]);
  });

  it('clips long descriptions and bounds required names', () => {
    const long = 'x'.repeat(900);
    const required = Array.from({ length: 200 }, (_, i) => `${'p'.repeat(5000)}${i}`);
    const session = sessionOf([
      toolset('big', [tool('big_tool', long, [], [], { inputSchema: { type: 'object', required } })]),
    ]);
    const record = search({ queries: ['big'] }, session).tools['big__big_tool'];
    expect(record?.description).toHaveLength(501);
    expect(record?.description.endsWith('…')).toBe(true);
    expect(record?.required).toHaveLength(32);
    for (const name of record?.required ?? []) expect(name.length).toBeLessThanOrEqual(64);
  });
});

describe('readLimit', () => {
  it('defaults, truncates and clamps', () => {
    expect(readLimit(undefined, 5, 25)).toBe(5);
    expect(readLimit(null, 5, 25)).toBe(5);
    expect(readLimit('3', 5, 25)).toBe(3);
    expect(readLimit(3.9, 5, 25)).toBe(3);
    expect(readLimit(0, 5, 25)).toBe(1);
    expect(readLimit(-4, 5, 25)).toBe(1);
    expect(readLimit(999, 5, 25)).toBe(25);
    expect(readLimit('lots', 5, 25)).toBe(5);
  });
});

describe('handleToolSearch with a huge query', () => {
  it('searches and echoes only the first MAX_QUERY_LENGTH characters', () => {
    const query = `create issue ${'𝕏'.repeat(300_000)}`;
    const started = performance.now();
    const result = search({ queries: [query] });
    expect(performance.now() - started).toBeLessThan(100);
    expect(result.queries).toEqual([query.slice(0, MAX_QUERY_LENGTH)]);
    expect(result.results[0]?.matches[0]).toBe('mq-linear__mq_linear_create_issue');
  });
});

describe('requiredNames', () => {
  it('gives [] for schemas without a usable required list', () => {
    expect(requiredNames({ function: 'not an object' })).toEqual([]);
    expect(requiredNames([])).toEqual([]);
    expect(requiredNames({ required: 'title' })).toEqual([]);
    expect(requiredNames({ required: ['a', 3, 'b'] })).toEqual(['a', 'b']);
  });
});

describe('tool_search with learning from use', () => {
  it("ranks the tool this tenant called after such a search first, and leaves other tenants' searches alone", () => {
    const session = issueSession();
    const plain = search({ queries: ['issues'] }, session).results[0]?.matches ?? [];
    expect(plain[0]).toBe('mq-linear__mq_linear_list_issues');
    const mine = new UsageBoosts();
    mine.record('show me issues', 'mq-linear__mq_linear_create_issue', 0);
    mine.record('issues please', 'mq-linear__mq_linear_create_issue', 0);
    const learned = handleToolSearch(session, { queries: ['issues'] }, { usage: { boosts: mine, now: 0 } });
    if (!learned.ok) throw new Error(learned.error.message);
    expect(learned.result.results[0]?.matches[0]).toBe('mq-linear__mq_linear_create_issue');
    const theirs = handleToolSearch(session, { queries: ['issues'] }, { usage: { boosts: new UsageBoosts(), now: 0 } });
    if (!theirs.ok) throw new Error(theirs.error.message);
    expect(theirs.result.results[0]?.matches).toEqual(plain);
  });
});
