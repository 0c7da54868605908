import { describe, expect, it } from 'vitest';
import { tool, toolset } from '@toolsearch/testing';
import { handleToolDescribe } from '../src/index';
import { issueSession, sessionOf } from './bridge-fixture';

function describeNames(args: unknown, session = issueSession()) {
  const outcome = handleToolDescribe(session, args);
  if (!outcome.ok) throw new Error(outcome.error.message);
  return outcome.result;
}

describe('handleToolDescribe', () => {
  it('returns full schemas in request order and reports unknown names in not_found', () => {
    const result = describeNames({
      names: [
        'mq-slack__mq_slack_post_message',
        'mq_out_of_scope_op',
        'mq-linear__mq_linear_create_issue',
        'mcp__bogus__missing',
      ],
    });
    expect(Object.keys(result.tools)).toEqual(['mq-slack__mq_slack_post_message', 'mq-linear__mq_linear_create_issue']);
    expect(result.tools['mq-linear__mq_linear_create_issue']).toMatchObject({
      description: 'Create a new issue in a team.',
      parameters: { required: ['title', 'team'] },
    });
    expect(result.not_found).toEqual(['mq_out_of_scope_op', 'mcp__bogus__missing']);
    expect(result.hint).toContain('tool_search');
    expect(result).not.toHaveProperty('errors');
  });

  it('suggests the namespaced name for a bare original name', () => {
    const result = describeNames({ names: ['mq_linear_list_issues'] });
    expect(result.not_found).toEqual(['mq_linear_list_issues']);
    expect(result.hint).toContain('mq-linear__mq_linear_list_issues');
  });

  it('suggests the nearest name for a mistyped one', () => {
    const result = describeNames({ names: ['mq-linear__mq_linaer_create_isue'] });
    expect(result.not_found).toEqual(['mq-linear__mq_linaer_create_isue']);
    expect(result.hint).toContain('Did you mean: mq-linear__mq_linear_create_issue?');
    expect(describeNames({ names: ['launch_the_rocket_now'] }).hint).not.toContain('Did you mean');
  });

  it('says to call a direct tool directly', () => {
    const result = describeNames({ names: ['terminal', 'Read-File'] });
    expect(result.errors?.['terminal']).toContain('call it directly');
    expect(result.errors?.['Read-File']).toContain("'read_file'");
    expect(result.not_found).toBeUndefined();
  });

  it('says not to retry a known core tool this session does not have', () => {
    const result = describeNames({ names: ['memory'] });
    expect(result.errors?.['memory']).toContain('not offered to this session');
    expect(result.errors?.['memory']).toContain('Do not retry');
  });

  it('deduplicates silently and accepts a bare string', () => {
    const name = 'mq-slack__mq_slack_post_message';
    expect(Object.keys(describeNames({ names: [name, name] }).tools)).toEqual([name]);
    expect(Object.keys(describeNames({ names: name }).tools)).toEqual([name]);
  });

  it('includes the output schema when the tool declares one', () => {
    const session = sessionOf([
      toolset('db', [
        tool('query', 'Run SQL.', ['sql'], ['sql'], {
          outputSchema: { type: 'object', properties: { rows: { type: 'array' } } },
        }),
      ]),
    ]);
    expect(describeNames({ names: ['db__query'] }, session).tools['db__query']?.returns).toMatchObject({
      type: 'object',
    });
  });

  it('refuses empty and oversized requests', () => {
    const session = issueSession();
    expect(handleToolDescribe(session, {})).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(handleToolDescribe(session, { names: [] })).toMatchObject({ ok: false, error: { code: 'BAD_ARGUMENTS' } });
    expect(handleToolDescribe(session, { names: Array.from({ length: 11 }, (_, i) => `t${i}`) })).toMatchObject({
      ok: false,
      error: { code: 'TOO_MANY' },
    });
  });
});
