import { describe, expect, it } from 'vitest';
import { coreToolset, tool, toolset } from '@toolsearch/testing';
import { planTurn, runsFullyParallel, type TurnCall } from '../src/index';
import { sessionOf } from './bridge-fixture';

const session = sessionOf([
  toolset('docs', [tool('search', 'Search the docs.', ['q']), tool('read_file', 'Read a doc page.', ['path'])], {
    supports_parallel_tool_calls: true,
  }),
  toolset('github', [
    tool('list_repos', 'List repositories.'),
    tool('get_repo', 'One repository.', [], [], { annotations: { readOnlyHint: true } }),
  ]),
  coreToolset(['terminal', 'write_file']),
]);
let counter = 0;
const call = (name: string, args: unknown): TurnCall => ({ id: `c${(counter += 1)}`, name, arguments: args });
const bridged = (name: string, args: Record<string, unknown> = {}) =>
  call('tool_call', { calls: [{ name, arguments: args }] });
const modes = (calls: TurnCall[]) =>
  planTurn(session, calls).map((segment) => `${segment.mode}:${segment.steps.length}`);

describe('planTurn', () => {
  it('runs bridged calls to a parallel-safe server together', () => {
    const plan = planTurn(session, [bridged('docs__search', { q: 'x' }), bridged('docs__read_file', { path: 'a' })]);
    expect(runsFullyParallel(plan)).toBe(true);
    expect(plan[0]?.steps.map((step) => step.kind === 'tool' && step.call.name)).toEqual([
      'docs__search',
      'docs__read_file',
    ]);
  });

  it('keeps bridged calls to a server that did not opt in sequential', () => {
    expect(modes([bridged('github__list_repos'), bridged('github__list_repos')])).toEqual(['sequential:2']);
  });

  it('treats read-only tools as parallel-safe through the bridge', () => {
    expect(modes([bridged('github__get_repo'), bridged('github__get_repo')])).toEqual(['parallel:2']);
  });

  it('runs the bridge lookups together', () => {
    expect(modes([call('tool_search', { queries: ['a'] }), call('tool_describe', { names: ['b'] })])).toEqual([
      'parallel:2',
    ]);
  });

  it('makes a malformed bridge call a barrier', () => {
    const plan = planTurn(session, [call('tool_call', { arguments: {} }), bridged('docs__search', { q: 'x' })]);
    expect(plan.map((segment) => segment.mode)).toEqual(['sequential']);
    expect(plan[0]?.steps[0]?.kind).toBe('error');
  });

  it('gives a bridged and a direct call of the same tool the same decision', () => {
    const direct = modes([call('docs__search', { q: 'x' }), call('docs__read_file', { path: 'a' })]);
    const viaBridge = modes([bridged('docs__search', { q: 'x' }), bridged('docs__read_file', { path: 'a' })]);
    expect(direct).toEqual(viaBridge);
  });

  it('cannot smuggle core file tools through the bridge into a parallel run', () => {
    expect(modes([bridged('write_file', { path: 'a' }), bridged('write_file', { path: 'b' })])).toEqual([
      'sequential:2',
    ]);
  });

  it('keeps order across barriers: no call moves past a write', () => {
    const plan = planTurn(session, [
      bridged('docs__search', { q: '1' }),
      bridged('docs__search', { q: '2' }),
      call('terminal', { command: 'make' }),
      bridged('docs__search', { q: '3' }),
      call('tool_search', { queries: ['x'] }),
    ]);
    expect(plan.map((segment) => `${segment.mode}:${segment.steps.length}`)).toEqual([
      'parallel:2',
      'sequential:1',
      'parallel:2',
    ]);
    expect(plan.flatMap((segment) => segment.steps.map((step) => step.callId))).toEqual(
      [...plan.flatMap((segment) => segment.steps.map((step) => step.callId))].sort(
        (a, b) => Number(a.slice(1)) - Number(b.slice(1)),
      ),
    );
  });

  it('expands a tool_call with several entries into one step per entry, in order', () => {
    const plan = planTurn(session, [
      call('tool_call', {
        calls: [
          { name: 'docs__search', arguments: { q: 'a' } },
          { name: 'docs__search', arguments: { q: 'b' } },
        ],
      }),
    ]);
    expect(plan).toHaveLength(1);
    expect(plan[0]?.steps.map((step) => (step.kind === 'tool' ? step.entryIndex : null))).toEqual([0, 1]);
  });

  it('plans a lone bridged call with its argument check', () => {
    const plan = planTurn(
      sessionOf([toolset('probe', [tool('docs_get', 'Get a doc.', ['document_id'], ['document_id'])])]),
      [bridged('probe__docs_get')],
    );
    const step = plan[0]?.steps[0];
    expect(step?.kind).toBe('error');
    if (step?.kind === 'error') {
      expect(step.error.message).toContain('NOT run');
      expect(step.error.message).toContain('document_id');
    }
  });
});
