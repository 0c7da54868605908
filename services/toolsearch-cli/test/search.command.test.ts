import { describe, expect, it } from 'vitest';
import { EXAMPLE_CATALOG, runCli, tempFile } from './run-cli';

describe('toolsearch search', () => {
  it('prints ranked matches per query', async () => {
    const { code, out } = await runCli([
      'search',
      '--catalog',
      EXAMPLE_CATALOG,
      'create a github issue',
      'post slack message',
    ]);
    expect(code).toBe(0);
    expect(out).toContain('34 tools searched');
    expect(out).toMatch(/"create a github issue"\n {2}1\. github__create_issue/);
    expect(out).toMatch(/"post slack message"\n {2}1\. slack__post_message/);
  });

  it('adds server, original tool name and score to every match with --json', async () => {
    const { out } = await runCli([
      'search',
      '--catalog',
      EXAMPLE_CATALOG,
      '--json',
      '--limit',
      '2',
      'weather forecast',
    ]);
    const json = JSON.parse(out) as {
      results: { matches: Record<string, unknown>[] }[];
      tools: Record<string, unknown>;
    };
    expect(json.results[0]?.matches[0]).toMatchObject({
      name: 'weather__forecast',
      server: 'weather',
      tool: 'forecast',
      reason: 'bm25',
    });
    expect(json.results[0]?.matches).toHaveLength(2);
    expect(Object.keys(json.tools)).toContain('weather__forecast');
  });

  it('explains a ranking, including a routing rule from the config', async () => {
    const config = tempFile('routing.yaml', 'routing:\n  - when: "refund"\n    tools: ["linear__*"]\n    pin: true\n');
    const { code, out } = await runCli([
      'search',
      '--catalog',
      EXAMPLE_CATALOG,
      '--config',
      config,
      '--explain',
      '--limit',
      '2',
      'post slack message',
      'refund request',
    ]);
    expect(code).toBe(0);
    expect(out).toContain('why:');
    expect(out).toMatch(
      /1\. slack__post_message: BM25F [\d.]+ × name reward [\d.]+ \+ source boost [\d.]+; matched post( ×[\d.]+)?, slack, messag/,
    );
    expect(out).toMatch(/post +\+[\d.]+ +\(idf [\d.]+; name×\d/);
    expect(out).toContain(
      '1. linear__create_ticket: a routing rule pins it to the top for this query; moved by routing[0] (pin when /refund/)',
    );
    const json = JSON.parse(
      (await runCli(['search', '--catalog', EXAMPLE_CATALOG, '--json', '--explain', 'weather'])).out,
    ) as { explain: { matches: { terms: unknown[] }[] }[] };
    expect(json.explain[0]?.matches[0]?.terms.length).toBeGreaterThan(0);
  });

  it('lists the connected sources when nothing matches', async () => {
    const { out } = await runCli(['search', '--catalog', EXAMPLE_CATALOG, 'qqqq zzzz']);
    expect(out).toContain('no match; connected sources: filesystem (4), github (8)');
  });

  it('answers a query file with one JSON line per query', async () => {
    const queries = tempFile('q.jsonl', '{"query":"乗換案内"}\n\n{"query":"run a sql query"}\n');
    const { code, out } = await runCli([
      'search',
      '--catalog',
      EXAMPLE_CATALOG,
      '--queries-file',
      queries,
      '--limit',
      '3',
    ]);
    expect(code).toBe(0);
    const lines = out
      .trim()
      .split('\n')
      .map(
        (line) =>
          JSON.parse(line) as {
            query: string;
            matches: { name: string; server: string; tool: string; score: number }[];
          },
      );
    expect(lines).toHaveLength(2);
    expect(lines[0]?.matches[0]).toMatchObject({
      name: 'jp-transit__search_route',
      server: 'jp-transit',
      tool: 'search_route',
    });
    expect(lines[1]?.matches[0]?.name).toBe('postgres__run_query');
    expect(lines[1]?.matches.length).toBeLessThanOrEqual(3);
  });

  it('answers a misspelt option with the nearest one and where to find the rest', async () => {
    const { code, err } = await runCli(['search', '--catalgo', EXAMPLE_CATALOG, 'q']);
    expect(code).toBe(2);
    expect(err).toBe(
      "toolsearch search: unknown option '--catalgo'; did you mean --catalog?\nRun 'toolsearch search --help' for its options.\n",
    );
  });

  it('explains bad input with exit code 2', async () => {
    expect(await runCli(['search', '--catalog', EXAMPLE_CATALOG])).toMatchObject({ code: 2 });
    expect((await runCli(['search', '--catalog', EXAMPLE_CATALOG, '--limit', '99', 'x'])).err).toContain('at most 25');
    const tooMany = await runCli(['search', '--catalog', EXAMPLE_CATALOG, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.err).toContain('at most 7');
    const bad = tempFile('bad.jsonl', '{"query": 1}\n');
    expect((await runCli(['search', '--catalog', EXAMPLE_CATALOG, '--queries-file', bad])).err).toContain(
      `${bad}:1: query must be a string`,
    );
  });
});

describe('toolsearch describe', () => {
  it('prints schemas, not_found with suggestions, and errors', async () => {
    const { code, out } = await runCli([
      'describe',
      '--catalog',
      EXAMPLE_CATALOG,
      'slack__post_message',
      'post_message',
      'terminal',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(out) as {
      tools: Record<string, { parameters: { required: string[] } }>;
      not_found: string[];
      hint: string;
      errors: Record<string, string>;
    };
    expect(json.tools['slack__post_message']?.parameters.required).toEqual(['channel', 'text']);
    expect(json.not_found).toEqual(['post_message']);
    expect(json.hint).toContain('slack__post_message');
    expect(json.errors['terminal']).toContain('not offered to this session');
  });

  it('asks for a name', async () => {
    expect((await runCli(['describe', '--catalog', EXAMPLE_CATALOG])).err).toContain('at least one tool name');
  });
});

describe('toolsearch eval', () => {
  const queries = tempFile(
    'eval.jsonl',
    [
      JSON.stringify({ query: 'open a github issue', gold_ids: ['github::create_issue'] }),
      JSON.stringify({
        query: 'post a message to a slack channel',
        gold_ids: { post_message: ['slack::post_message'] },
      }),
      JSON.stringify({ query: 'qqqq zzzz', gold_ids: [] }),
    ].join('\n'),
  );

  it('reports the documented keys for toolsearch and the baseline', async () => {
    const { code, out } = await runCli([
      'eval',
      '--catalog',
      EXAMPLE_CATALOG,
      '--queries',
      queries,
      '--k',
      '1,5',
      '--json',
    ]);
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown> & { baseline: Record<string, unknown> };
    for (const key of ['queries', 'recall', 'hit5', 'mrr', 'ndcg10', 'empty_rate', 'abstain_accuracy']) {
      expect(json).toHaveProperty(key);
      expect(json.baseline).toHaveProperty(key);
    }
    expect(json).toMatchObject({ queries: 3, recall: { '1': 1, '5': 1 }, abstain_accuracy: 1 });
    expect(json).toMatchObject({ tuning: { queries: 3 }, test: { queries: 0 } });
    expect(json.baseline).toMatchObject({ tuning: { queries: 3 }, test: { queries: 0 } });
  });

  it('prints a readable comparison', async () => {
    const { out } = await runCli(['eval', '--catalog', EXAMPLE_CATALOG, '--queries', queries]);
    expect(out).toMatch(/toolsearch all +R@1 1\.000/);
    // The fixed split: the third query (position 2) is tuning, so the frozen test part is empty here.
    expect(out).toContain('3 queries (tuning 3, frozen test 0)');
    expect(out).toMatch(/toolsearch tuning +R@1 1\.000/);
    expect(out).toContain('elasticlunr');
  });

  it('rejects a bad --k', async () => {
    expect((await runCli(['eval', '--catalog', EXAMPLE_CATALOG, '--queries', queries, '--k', '0,x'])).err).toContain(
      '--k must be',
    );
  });
});

describe('toolsearch bench', () => {
  it('reports build time, memory and latency for both engines', async () => {
    const { code, out } = await runCli(['bench', '--catalog', EXAMPLE_CATALOG, '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, number> & { baseline: Record<string, number> };
    for (const key of ['tools', 'queries', 'build_ms', 'memory_bytes', 'p50_ms', 'p99_ms']) {
      expect(typeof json[key]).toBe('number');
      if (key !== 'tools' && key !== 'queries') expect(typeof json.baseline[key]).toBe('number');
    }
    expect(json['tools']).toBe(34);
    expect(json['queries']).toBeGreaterThan(10);
  });
});
