import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coreToolset, hostileJson, hostileStrings, tool, toolset } from '@toolsearch/testing';
import { handleToolCall, handleToolDescribe, handleToolSearch, planTurn } from '../src/index';
import { sessionOf } from './bridge-fixture';

const session = sessionOf([
  toolset('github', [
    tool('create_issue', 'Open an issue.', ['title'], ['title']),
    tool('list_repos', 'List repositories.'),
  ]),
  toolset('odd', [
    tool('weird', 'A tool with an odd schema.', [], [], {
      inputSchema: {
        type: 'object',
        properties: { n: { type: 'integer' }, list: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    }),
  ]),
  coreToolset(['terminal']),
]);

// Hostile values: random JSON, huge strings, deep nesting, prototype keys, special-token text,
// lone surrogates, wrong types.
const hostileString = hostileStrings(['tool_call', 'github__create_issue', '{"calls":'], 20_000);
const hostile = hostileJson(hostileString, ['queries', 'names', 'calls', 'name', 'arguments', 'limit'], 40);

function structured(outcome: { ok: boolean; error?: { code: string; message: string } }): void {
  if (!outcome.ok) {
    expect(outcome.error?.code).toMatch(/^[A-Z_]+$/);
    expect(typeof outcome.error?.message).toBe('string');
  }
}

describe('bridge handlers under hostile input', () => {
  it('tool_search never throws and always answers in shape', () => {
    fc.assert(
      fc.property(hostile, (args) => {
        const outcome = handleToolSearch(session, args);
        structured(outcome);
        if (outcome.ok)
          for (const name of Object.keys(outcome.result.tools))
            expect(session.table.deferred.some((t) => t.name === name)).toBe(true);
      }),
      { seed: 20261202, numRuns: 400 },
    );
  });

  it('tool_describe never throws and never describes a tool outside the session', () => {
    fc.assert(
      fc.property(hostile, (args) => {
        const outcome = handleToolDescribe(session, args);
        structured(outcome);
        if (outcome.ok)
          for (const name of Object.keys(outcome.result.tools))
            expect(session.table.byName.get(name)?.deferred).toBe(true);
      }),
      { seed: 20261203, numRuns: 400 },
    );
  });

  it('tool_call never throws and only ever unwraps to deferred tools of the session', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostile,
          fc.record({ calls: fc.array(fc.record({ name: hostileString, arguments: hostile }), { maxLength: 20 }) }),
        ),
        (args) => {
          const outcome = handleToolCall(session, args);
          structured(outcome);
          if (outcome.ok) {
            for (const entry of outcome.entries) {
              structured(entry);
              if (entry.ok) expect(session.table.byName.get(entry.call.name)?.deferred).toBe(true);
            }
          }
        },
      ),
      { seed: 20261204, numRuns: 400 },
    );
  });

  it('planning a turn of hostile calls keeps every call and never throws', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.string(),
            name: fc.oneof(hostileString, fc.constantFrom('tool_call', 'tool_search', 'tool_describe')),
            arguments: hostile,
          }),
          { maxLength: 12 },
        ),
        (calls) => {
          const segments = planTurn(session, calls);
          const callIds = segments.flatMap((segment) => segment.steps.map((step) => step.callId));
          for (const call of calls) expect(callIds).toContain(call.id);
        },
      ),
      { seed: 20261205, numRuns: 200 },
    );
  });
});
