import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '@toolsearch/testing';
import { EXAMPLE_CATALOG, runCli, tempFile } from './run-cli';

describe('toolsearch assemble', () => {
  it('prints a readable summary with the tier, counts, budget and listing', async () => {
    const { code, out } = await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '200k']);
    expect(code).toBe(0);
    expect(out).toContain('tier 1');
    expect(out).toContain('34 in catalog, 0 direct, 34 deferred');
    expect(out).toContain('budget: 4000 tokens (context 200000)');
    expect(out).toContain('- github__create_issue: Open a new issue in a GitHub repository');
  });

  it('prints the documented keys with --json', async () => {
    const { code, out } = await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '8000', '--json']);
    expect(code).toBe(0);
    const json = JSON.parse(out) as Record<string, unknown>;
    for (const key of ['tier', 'listing_form', 'deferred_count', 'listing_tokens', 'budget_tokens', 'hash', 'tools']) {
      expect(json).toHaveProperty(key);
    }
    expect(json['budget_tokens']).toBe(400);
    expect(json['listing_tokens']).toBeLessThanOrEqual(400);
    expect((json['tools'] as unknown[]).length).toBe(3);
  });

  it('combines several catalog files', async () => {
    const extra = tempFile('extra.jsonl', '{"server":"notion","name":"search_pages","description":"Find pages."}\n');
    const { out } = await runCli([
      'assemble',
      '--catalog',
      EXAMPLE_CATALOG,
      '--catalog',
      extra,
      '--context',
      '200k',
      '--json',
    ]);
    expect(JSON.parse(out)).toMatchObject({ deferred_count: 35 });
  });

  it('emits the Anthropic and MCP formats', async () => {
    const anthropic = JSON.parse(
      (await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '0', '--format', 'anthropic', '--json']))
        .out,
    ) as { tools: Record<string, unknown>[] };
    expect(Object.keys(anthropic.tools[0] ?? {})).toEqual(['name', 'description', 'input_schema']);
    const mcp = JSON.parse(
      (await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '0', '--format', 'mcp', '--json'])).out,
    ) as { tools: Record<string, unknown>[] };
    expect(Object.keys(mcp.tools[0] ?? {})).toEqual(['name', 'description', 'inputSchema']);
  });

  it('reads the tool_search settings from a YAML config', async () => {
    const config = tempFile('config.yaml', 'tools:\n  tool_search:\n    listing: off\n');
    const { out } = await runCli([
      'assemble',
      '--catalog',
      EXAMPLE_CATALOG,
      '--context',
      '200k',
      '--config',
      config,
      '--json',
    ]);
    expect(JSON.parse(out)).toMatchObject({ tier: 2, listing_form: 'none' });
  });

  it('prints config warnings on stderr and keeps going', async () => {
    const config = tempFile('config.yaml', 'threshold_pct: lots\n');
    const { code, err } = await runCli([
      'assemble',
      '--catalog',
      EXAMPLE_CATALOG,
      '--context',
      '200k',
      '--config',
      config,
    ]);
    expect(code).toBe(0);
    expect(err).toContain('warning: tools.tool_search.threshold_pct');
  });

  it('honours ENABLE_TOOL_SEARCH=auto:N', async () => {
    const { out } = await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '200k', '--json'], {
      ENABLE_TOOL_SEARCH: 'auto:10',
    });
    expect(JSON.parse(out)).toMatchObject({ tier: 0, activated: false, mode: 'budget' });
  });

  describe('errors (exit code 2)', () => {
    it('names a missing catalog file', async () => {
      const { code, err } = await runCli(['assemble', '--catalog', '/nonexistent/x.jsonl', '--context', '1000']);
      expect(code).toBe(2);
      expect(err).toContain('cannot read catalog /nonexistent/x.jsonl: no such file');
    });

    it('names the file and line of a malformed record', async () => {
      const bad = tempFile('bad.jsonl', '{"server":"a","name":"b"}\n\n{"server":"a"\n');
      const { code, err } = await runCli(['assemble', '--catalog', bad, '--context', '1000']);
      expect(code).toBe(2);
      expect(err).toContain(`${bad}:3: not valid JSON`);
    });

    it('rejects an unknown option', async () => {
      const { code, err } = await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '1000', '--colour']);
      expect(code).toBe(2);
      expect(err).toContain("unknown option '--colour'.");
    });

    it('rejects bad values with the range or choices', async () => {
      const context = await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', 'big']);
      expect(context).toMatchObject({ code: 2 });
      expect(context.err).toContain('--context must be a whole number');
      const format = await runCli(['assemble', '--catalog', EXAMPLE_CATALOG, '--context', '1000', '--format', 'xml']);
      expect(format.err).toContain('--format must be openai, anthropic or mcp');
      const encoding = await runCli([
        'assemble',
        '--catalog',
        EXAMPLE_CATALOG,
        '--context',
        '1000',
        '--encoding',
        'gpt2',
      ]);
      expect(encoding.err).toContain('--encoding must be o200k_base or cl100k_base');
    });

    it('asks for the required options', async () => {
      expect((await runCli(['assemble', '--catalog', EXAMPLE_CATALOG])).err).toContain('--context is required');
      expect((await runCli(['assemble', '--context', '1000'])).err).toContain('--catalog is required');
    });

    it('rejects an unknown command', async () => {
      const { code, err } = await runCli(['frobnicate']);
      expect(code).toBe(2);
      expect(err).toContain("unknown command 'frobnicate'");
    });
  });

  it('runs as `npx toolsearch` from the repository root', () => {
    const out = execFileSync(
      'npx',
      ['toolsearch', 'assemble', '--catalog', EXAMPLE_CATALOG, '--context', '32k', '--json'],
      {
        cwd: REPO_ROOT,
        encoding: 'utf8',
      },
    );
    expect(JSON.parse(out)).toMatchObject({ tier: 1, deferred_count: 34 });
  }, 30_000);
});
