import { describe, expect, it } from 'vitest';
import type { JsonObject } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { checkArguments, handleToolCall, normalizeCallEntries, type EntryOutcome } from '../src/index';
import { issueSession, sessionOf } from './bridge-fixture';

function single(args: unknown, session = issueSession()): EntryOutcome {
  const outcome = handleToolCall(session, args);
  if (!outcome.ok) throw new Error(outcome.error.message);
  const [entry] = outcome.entries;
  if (entry === undefined) throw new Error('no entry');
  return entry;
}

const post = { name: 'mq-slack__mq_slack_post_message', arguments: { channel: '#ops', text: 'hi' } };

describe('normalizeCallEntries', () => {
  it('accepts calls as a list, a single object, a JSON string, and the legacy single shape', () => {
    expect(normalizeCallEntries({ calls: [post] })).toEqual({ ok: true, entries: [post] });
    expect(normalizeCallEntries({ calls: post })).toEqual({ ok: true, entries: [post] });
    expect(normalizeCallEntries({ calls: JSON.stringify([post]) })).toEqual({ ok: true, entries: [post] });
    expect(normalizeCallEntries(post)).toEqual({ ok: true, entries: [post] });
    expect(normalizeCallEntries(JSON.stringify({ calls: [post] }))).toEqual({ ok: true, entries: [post] });
  });

  it('treats blank arguments as no arguments and parses JSON-text arguments', () => {
    for (const blank of ['', '  \n', null, undefined]) {
      expect(normalizeCallEntries({ calls: [{ name: 'todo_list', arguments: blank }] })).toEqual({
        ok: true,
        entries: [{ name: 'todo_list', arguments: {} }],
      });
    }
    expect(normalizeCallEntries({ calls: [{ name: 'x', arguments: '{"a":1}' }] })).toEqual({
      ok: true,
      entries: [{ name: 'x', arguments: { a: 1 } }],
    });
  });

  it('explains each malformed shape', () => {
    const message = (args: unknown) => {
      const result = normalizeCallEntries(args);
      return result.ok ? '' : result.error.message;
    };
    expect(message({})).toContain("requires 'calls'");
    expect(message({ calls: [] })).toContain('non-empty list');
    expect(message({ calls: 'nope' })).toContain('not valid JSON');
    expect(message({ calls: [42] })).toContain('calls[0] must be an object');
    expect(message({ calls: [{ arguments: {} }] })).toContain("calls[0] needs a 'name'");
    expect(message({ calls: [{ name: 'x', arguments: '{"todos": [' }] })).toContain('not valid JSON');
    expect(message({ calls: [{ name: 'x', arguments: 42 }] })).toContain('must be an object');
    const recursion = normalizeCallEntries({ calls: [{ name: 'tool_search', arguments: {} }] });
    expect(recursion).toMatchObject({ ok: false, error: { code: 'BRIDGE_RECURSION' } });
  });

  it('caps the number of calls', () => {
    expect(normalizeCallEntries({ calls: Array.from({ length: 17 }, () => post) })).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY' },
    });
  });
});

describe('handleToolCall', () => {
  it('unwraps a valid call into the real tool and its arguments', () => {
    const entry = single({ calls: [post] });
    expect(entry).toMatchObject({
      ok: true,
      call: { name: 'mq-slack__mq_slack_post_message', arguments: { channel: '#ops', text: 'hi' }, validated: true },
    });
    if (entry.ok)
      expect(entry.call.tool).toMatchObject({ originalName: 'mq_slack_post_message', toolset: 'mcp-mq-slack' });
  });

  it('resolves every entry on its own', () => {
    const outcome = handleToolCall(issueSession(), { calls: [post, { name: 'nope', arguments: {} }, post] });
    expect(outcome.ok && outcome.entries.map((entry) => entry.ok)).toEqual([true, false, true]);
  });

  it('suggests the exact name for an unknown one', () => {
    const entry = single({ name: 'mq_slack_post_message', arguments: {} });
    expect(entry).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    if (!entry.ok) expect(entry.error.message).toContain("Did you mean 'mq-slack__mq_slack_post_message'");
    const unknown = single({ name: 'unknown_xxx', arguments: { foo: 'bar' } });
    if (!unknown.ok) expect(unknown.error.message).toContain('Use tool_search');
  });

  it('suggests the nearest name for a mistyped one, and nothing for a name far from all', () => {
    const entry = single({ name: 'mq-slack__mq_slak_post_mesage', arguments: {} });
    expect(entry).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
    if (!entry.ok) expect(entry.error.message).toContain("Did you mean 'mq-slack__mq_slack_post_message'");
    const far = single({ name: 'launch_the_rocket_now', arguments: {} });
    if (!far.ok) expect(far.error.message).not.toContain('Did you mean');
  });

  it('refuses a direct tool, whatever its spelling', () => {
    for (const name of ['terminal', 'Read_File', 'write-file']) {
      const entry = single({ name, arguments: { command: 'echo hi' } });
      expect(entry).toMatchObject({ ok: false, error: { code: 'NOT_DEFERRED' } });
      if (!entry.ok) expect(entry.error.message).toContain('call it directly');
    }
  });

  it('refuses a known core tool this session was not given, without inviting a retry', () => {
    const entry = single({ name: 'memory', arguments: {} });
    expect(entry).toMatchObject({ ok: false, error: { code: 'NOT_IN_SESSION' } });
  });

  it("never reaches another session's tools", () => {
    const other = sessionOf([toolset('secret', [tool('export_all_data')])]);
    expect(other.table.byName.has('secret__export_all_data')).toBe(true);
    const entry = single({ name: 'secret__export_all_data', arguments: {} });
    expect(entry).toMatchObject({ ok: false, error: { code: 'UNKNOWN_TOOL' } });
  });

  it('reports missing required arguments with the schema, and does not run the tool', () => {
    const entry = single({ name: 'mq-linear__mq_linear_create_issue', arguments: {} });
    expect(entry).toMatchObject({
      ok: false,
      error: { code: 'INVALID_ARGUMENTS', details: { path: 'arguments', constraint: 'required' } },
    });
    if (!entry.ok) {
      expect(entry.error.message).toContain('title, team');
      expect(entry.error.message).toContain('NOT run');
      expect(entry.error.details?.['parameters']).toMatchObject({ required: ['title', 'team'] });
    }
  });
});

describe('checkArguments', () => {
  const check = (schema: JsonObject, args: Record<string, unknown>) => checkArguments('probe', schema, args);

  it('blocks a value outside an enum, naming the path and keyword', () => {
    const result = check(
      { type: 'object', properties: { priority: { enum: ['low', 'high'] } }, required: ['priority'] },
      { priority: 'urgent' },
    );
    expect(result).toMatchObject({ ok: false, problem: { path: 'arguments.priority', constraint: 'enum' } });
  });

  it('reports nested paths for type, required and additionalProperties', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: {
        options: {
          type: 'object',
          properties: { count: { type: 'integer' } },
          required: ['count'],
          additionalProperties: false,
        },
      },
      required: ['options'],
    };
    expect(check(schema, { options: { count: 'not-an-integer' } })).toMatchObject({
      ok: false,
      problem: { path: 'arguments.options.count', constraint: 'type' },
    });
    expect(check(schema, { options: {} })).toMatchObject({
      ok: false,
      problem: { path: 'arguments.options', constraint: 'required' },
    });
    expect(check(schema, { options: { count: 1, extra: true } })).toMatchObject({
      ok: false,
      problem: { path: 'arguments.options', constraint: 'additionalProperties' },
    });
  });

  it('writes odd keys and array indexes readably', () => {
    const schema: JsonObject = {
      type: 'object',
      properties: { 'odd key': { type: 'array', items: { type: 'integer' } } },
    };
    expect(check(schema, { 'odd key': [1, 'x'] })).toMatchObject({
      ok: false,
      problem: { path: 'arguments["odd key"][1]' },
    });
  });

  it('coerces plain values and passes the repaired arguments on', () => {
    const result = check(
      {
        type: 'object',
        properties: { count: { type: 'integer' }, tags: { type: 'array', items: { type: 'string' } } },
        required: ['count'],
      },
      { count: '42', tags: 'one' },
    );
    expect(result).toEqual({ ok: true, arguments: { count: 42, tags: ['one'] }, checked: true });
  });

  it('turns a blank or "{}" optional object into {} but never invents required fields', () => {
    const loose: JsonObject = {
      type: 'object',
      properties: { id: { type: 'string' }, parameters: { type: 'object' } },
      required: ['id', 'parameters'],
    };
    for (const value of [{}, '', '{}']) {
      expect(check(loose, { id: 'GetBalance', parameters: value })).toEqual({
        ok: true,
        arguments: { id: 'GetBalance', parameters: {} },
        checked: true,
      });
    }
    const strict: JsonObject = {
      type: 'object',
      properties: { parameters: { type: 'object', required: ['id'] } },
      required: ['parameters'],
    };
    expect(check(strict, { parameters: '' })).toMatchObject({
      ok: false,
      problem: { path: 'arguments.parameters', constraint: 'type' },
    });
  });

  it('accepts null for OpenAPI nullable values', () => {
    expect(
      check(
        { type: 'object', properties: { value: { type: 'string', nullable: true } }, required: ['value'] },
        { value: null },
      ),
    ).toMatchObject({ ok: true });
  });

  it('leaves literal enum objects alone', () => {
    const literal = { nullable: true, $ref: 'literal-not-a-schema' };
    expect(check({ type: 'object', properties: { value: { enum: [literal] } } }, { value: literal })).toMatchObject({
      ok: true,
      checked: true,
    });
  });

  it('fails open on a malformed schema and on a remote $ref', () => {
    expect(check({ type: 'object', properties: { value: { type: 'not-a-json-schema-type' } } }, { value: 1 })).toEqual({
      ok: true,
      arguments: { value: 1 },
      checked: false,
    });
    expect(
      check(
        { type: 'object', properties: { payload: { $ref: 'https://example.invalid/schema.json' } } },
        { payload: 1 },
      ),
    ).toMatchObject({ ok: true, checked: false });
  });

  it('validates 2020-12 schemas with their own keywords', () => {
    const schema: JsonObject = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { point: { type: 'array', prefixItems: [{ type: 'number' }, { type: 'number' }], items: false } },
    };
    expect(check(schema, { point: [1, 2] })).toMatchObject({ ok: true });
    expect(check(schema, { point: [1, 2, 3] })).toMatchObject({ ok: false, problem: { path: 'arguments.point' } });
  });
});
