import { describe, expect, it } from 'vitest';
import { defaultToolSearchConfig, MODEL_NAME_PATTERN, parseToolSearchConfig, type Toolset } from '@toolsearch/catalog';
import {
  bigServer,
  coreToolset,
  hasSharedData,
  loadSharedCatalog,
  reportSharedDataSkip,
  tool,
  toolset,
  type SharedCatalogName,
} from '@toolsearch/testing';
import { countTokens, tokenCounter } from '@toolsearch/tokens';
import { assembleSession } from './assemble';
import { AssemblyCache } from './assembly-cache';
import type { AnthropicTool, McpTool, OpenAiTool } from './formats';

const defaults = defaultToolSearchConfig();
const names = (tools: readonly unknown[]) =>
  tools.map((t) => ((t as OpenAiTool).function ? (t as OpenAiTool).function.name : (t as AnthropicTool).name));

const github = toolset('github', [
  tool('create_issue', 'Open a new issue in a GitHub repository.', ['title', 'body'], ['title']),
  tool('list_repos', 'List repositories.'),
]);
const core = coreToolset(['terminal', 'read_file', 'memory']);

describe('assembleSession', () => {
  it('passes everything through at tier 0 when nothing is deferrable', () => {
    const { result } = assembleSession({ toolsets: [core], config: defaults, contextTokens: 200_000 });
    expect(result).toMatchObject({ activated: false, tier: 0, listing_form: 'none', deferred_count: 0 });
    expect(names(result.tools)).toEqual(['terminal', 'read_file', 'memory']);
  });

  it('passes everything through when enabled is off', () => {
    const config = parseToolSearchConfig({ enabled: 'off' }).config;
    const { result } = assembleSession({ toolsets: [github, core], config, contextTokens: 200_000 });
    expect(result.tier).toBe(0);
    expect(names(result.tools)).toEqual([
      'terminal',
      'read_file',
      'memory',
      'github__create_issue',
      'github__list_repos',
    ]);
  });

  it('drops an incoming bridge definition even when the bridge is off', () => {
    const config = parseToolSearchConfig({ enabled: 'off' }).config;
    const withBridge = coreToolset(['terminal', 'tool_search']);
    const { result } = assembleSession({ toolsets: [withBridge], config, contextTokens: 200_000 });
    expect(names(result.tools)).toEqual(['terminal']);
  });

  it('puts the visible tools first, in order, then the three bridge tools', () => {
    const { result } = assembleSession({ toolsets: [github, core], config: defaults, contextTokens: 200_000 });
    expect(result).toMatchObject({
      activated: true,
      tier: 1,
      listing_form: 'full',
      deferred_count: 2,
      visible_count: 3,
    });
    expect(names(result.tools)).toEqual([
      'terminal',
      'read_file',
      'memory',
      'tool_search',
      'tool_describe',
      'tool_call',
    ]);
    const search = (result.tools[3] as OpenAiTool).function;
    expect(search.description).toContain('among 2 more');
    expect(search.description).toContain('- github__create_issue: Open a new issue in a GitHub repository.');
    expect(search.parameters).toMatchObject({ required: ['queries'] });
  });

  it('keeps the core working set direct while MCP tools are deferred', () => {
    const session = [
      coreToolset(['terminal', 'memory', 'computer_use', 'clarify']),
      toolset('probe', [tool('probe_op')]),
    ];
    const { result } = assembleSession({ toolsets: session, config: defaults, contextTokens: 200_000 });
    expect(names(result.tools)).toEqual(['terminal', 'memory', 'clarify', 'tool_search', 'tool_describe', 'tool_call']);
  });

  it('activates for a curated cold core tool alone, and not once the defer list is emptied', () => {
    const session = [coreToolset(['terminal', 'computer_use'])];
    expect(assembleSession({ toolsets: session, config: defaults, contextTokens: 200_000 }).result.activated).toBe(
      true,
    );
    const eager = parseToolSearchConfig({ defer: [] }).config;
    const { result } = assembleSession({ toolsets: session, config: eager, contextTokens: 200_000 });
    expect(result.activated).toBe(false);
    expect(names(result.tools)).toEqual(['terminal', 'computer_use']);
  });

  it('gives the bare bridge at tier 2 when the listing is off', () => {
    const config = parseToolSearchConfig({ listing: 'off' }).config;
    const many = toolset(
      'listingtest',
      Array.from({ length: 30 }, (_, i) => tool(`x_${i}`)),
    );
    const { result } = assembleSession({ toolsets: [many], config, contextTokens: 1000 });
    expect(result).toMatchObject({ activated: true, tier: 2, listing_form: 'none', listing: null });
    expect(JSON.stringify(result.tools)).not.toContain('listingtest__x_0');
  });

  it('is tier 2 with threshold_pct 0, since no listing fits a zero budget', () => {
    const config = parseToolSearchConfig({ threshold_pct: 0 }).config;
    const { result } = assembleSession({ toolsets: [github], config, contextTokens: 200_000 });
    expect(result).toMatchObject({ tier: 2, budget_tokens: 0, listing_tokens: 0 });
  });

  it('collapses a huge server as it joins, and drops to tier 2 when only summaries fit', () => {
    const small = assembleSession({ toolsets: [github], config: defaults, contextTokens: 32_000 }).result;
    expect(small).toMatchObject({ tier: 1, listing_form: 'full' });
    const mixed = assembleSession({
      toolsets: [github, bigServer('cloudflare', 3300)],
      config: defaults,
      contextTokens: 32_000,
    }).result;
    expect(mixed).toMatchObject({ tier: 1, listing_form: 'mixed', collapsed: ['cloudflare'] });
    const config = parseToolSearchConfig({ listing_max_tokens: 200 }).config;
    const toolsets = [bigServer('cloudflare', 3300), bigServer('aws', 2000)];
    const { result } = assembleSession({ toolsets, config, contextTokens: 32_000 });
    expect(result).toMatchObject({ tier: 2, listing_form: 'groups' });
    expect(result.listing).toContain('cloudflare: 3300 tools');
  });

  it('embeds the listing with listing: on whatever share of a small context it takes, within its cap', () => {
    const toolsets = [github, bigServer('aws', 60)];
    // 5 % of 8,000 tokens is 400: auto falls back to a smaller form than on, whose budget is the cap.
    const auto = assembleSession({ toolsets, config: defaults, contextTokens: 8_000 }).result;
    const on = assembleSession({
      toolsets,
      config: parseToolSearchConfig({ listing: 'on' }).config,
      contextTokens: 8_000,
    }).result;
    expect(auto.budget_tokens).toBe(400);
    expect(auto.listing_form).not.toBe('full');
    expect(on).toMatchObject({ tier: 1, listing_form: 'full', budget_tokens: 4000 });
    expect(on.listing_tokens).toBeGreaterThan(400);
    // The absolute cap still holds.
    const capped = parseToolSearchConfig({ listing: 'on', listing_max_tokens: 200 }).config;
    expect(
      assembleSession({ toolsets, config: capped, contextTokens: 8_000 }).result.listing_tokens,
    ).toBeLessThanOrEqual(200);
  });

  it('keeps the tool_search schema of a 500-tool catalog under 4,500 tokens with defaults', () => {
    const lean = toolset(
      'lean-catalog',
      Array.from({ length: 500 }, (_, i) =>
        tool(`op_${i}`, 'Perform a deliberately verbose connected service action.'),
      ),
    );
    const { result } = assembleSession({ toolsets: [lean], config: defaults, contextTokens: 1_000_000 });
    expect(countTokens(JSON.stringify(result.tools[0]))).toBeLessThan(4500);
    expect(['names', 'mixed', 'groups']).toContain(result.listing_form);
  });

  it('gives the same bytes and hash whatever the order of the toolsets', () => {
    const linear = toolset('linear', [tool('get_issue', 'Fetch an issue.')]);
    const a = assembleSession({ toolsets: [github, linear, core], config: defaults, contextTokens: 128_000 }).result;
    const b = assembleSession({ toolsets: [core, linear, github], config: defaults, contextTokens: 128_000 }).result;
    expect(JSON.stringify(b.tools)).toBe(JSON.stringify(a.tools));
    expect(b.hash).toBe(a.hash);
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it('changes the hash when a tool changes', () => {
    const before = assembleSession({ toolsets: [github], config: defaults, contextTokens: 128_000 }).result.hash;
    const changed = toolset('github', [
      tool('create_issue', 'Open an issue somewhere else.'),
      tool('list_repos', 'List repositories.'),
    ]);
    expect(assembleSession({ toolsets: [changed], config: defaults, contextTokens: 128_000 }).result.hash).not.toBe(
      before,
    );
  });

  it('emits the OpenAI, Anthropic and MCP dialects', () => {
    const input = { toolsets: [github, core], config: defaults, contextTokens: 200_000 };
    const openai = assembleSession({ ...input, format: 'openai' }).result.tools[0] as OpenAiTool;
    const anthropic = assembleSession({ ...input, format: 'anthropic' }).result.tools[0] as AnthropicTool;
    const mcp = assembleSession({ ...input, format: 'mcp' }).result.tools[0] as McpTool;
    expect(Object.keys(openai)).toEqual(['type', 'function']);
    expect(Object.keys(openai.function)).toEqual(['name', 'description', 'parameters']);
    expect(Object.keys(anthropic)).toEqual(['name', 'description', 'input_schema']);
    expect(Object.keys(mcp)).toEqual(['name', 'description', 'inputSchema']);
  });

  it('counts the deferrable schemas exactly', () => {
    const { result } = assembleSession({ toolsets: [github], config: defaults, contextTokens: 200_000 });
    const expected = github.tools.reduce(
      (sum, t) =>
        sum +
        countTokens(
          JSON.stringify({ name: `github__${t.name}`, description: t.description, parameters: t.inputSchema }),
        ),
      0,
    );
    expect(result.deferred_tokens).toBe(expected);
  });

  it('counts the same schemas again from memory, and new ones next to known ones, exactly', () => {
    const big = bigServer('schemas', 40);
    const first = assembleSession({ toolsets: [big], config: defaults, contextTokens: 200_000 }).result;
    const again = assembleSession({ toolsets: [big], config: defaults, contextTokens: 200_000 }).result;
    expect(again.deferred_tokens).toBe(first.deferred_tokens);
    expect(again.hash).toBe(first.hash);
    // `fresh` has never been assembled: its schemas are counted in a batch next to known ones.
    const fresh = bigServer('fresh', 7);
    const both = assembleSession({ toolsets: [big, fresh], config: defaults, contextTokens: 200_000 }).result;
    const freshOnly = assembleSession({ toolsets: [fresh], config: defaults, contextTokens: 200_000 }).result;
    expect(both.deferred_tokens).toBe(first.deferred_tokens + freshOnly.deferred_tokens);
    const direct = fresh.tools.reduce(
      (sum, t) =>
        sum +
        tokenCounter().countDirect(
          JSON.stringify({ name: `fresh__${t.name}`, description: t.description, parameters: t.inputSchema }),
        ),
      0,
    );
    expect(freshOnly.deferred_tokens).toBe(direct);
  });

  describe('budget-gated mode (auto:N)', () => {
    const config = parseToolSearchConfig({}, { enableToolSearch: 'auto:5' }).config;

    it('loads everything directly while the deferrable schemas stay under N % of the context', () => {
      const { result } = assembleSession({ toolsets: [github], config, contextTokens: 200_000 });
      expect(result).toMatchObject({ activated: false, tier: 0, mode: 'budget' });
      expect(names(result.tools)).toEqual(['github__create_issue', 'github__list_repos']);
    });

    it('activates once they reach N % of the context', () => {
      const big = bigServer('cloudflare', 300);
      const { result } = assembleSession({ toolsets: [big], config, contextTokens: 100_000 });
      expect(result.deferred_tokens).toBeGreaterThanOrEqual(5000);
      expect(result.activated).toBe(true);
    });

    it('stays active for the session once activated', () => {
      const { result } = assembleSession({
        toolsets: [github],
        config,
        contextTokens: 200_000,
        previouslyActive: true,
      });
      expect(result.activated).toBe(true);
    });

    it('never activates without deferrable tools', () => {
      const { result } = assembleSession({ toolsets: [core], config, contextTokens: 200_000, previouslyActive: true });
      expect(result.activated).toBe(false);
    });
  });
});

describe('AssemblyCache', () => {
  it('answers a repeated assembly from the cache with the same result', () => {
    const cache = new AssemblyCache(4);
    const input = { toolsets: [github, core], config: defaults, contextTokens: 200_000 };
    const first = cache.assemble(input);
    const second = cache.assemble({ ...input, toolsets: [core, github] });
    expect(second).toBe(first);
    expect(cache.stats).toMatchObject({ hits: 1, misses: 1 });
  });

  it('misses when the content differs, even for equal ids', () => {
    const cache = new AssemblyCache(4);
    cache.assemble({ toolsets: [github], config: defaults, contextTokens: 200_000 });
    const changed = toolset('github', [tool('create_issue', 'Different.')]);
    const result = cache.assemble({ toolsets: [changed], config: defaults, contextTokens: 200_000 });
    expect(cache.stats.misses).toBe(2);
    expect(result.result.deferred_count).toBe(1);
  });

  it('evicts the least recently used entry beyond its capacity', () => {
    const cache = new AssemblyCache(1);
    cache.assemble({ toolsets: [github], config: defaults, contextTokens: 1000 });
    cache.assemble({ toolsets: [github], config: defaults, contextTokens: 2000 });
    expect(cache.stats.size).toBe(1);
  });
});

describe.skipIf(!hasSharedData())('assembleSession on every shared catalog', () => {
  const catalogs: SharedCatalogName[] = ['github', 'livemcpbench', 'stabletoolbench', 'toucan', 'toucanScraped'];
  const contexts = [8_000, 32_000, 128_000, 200_000, 1_000_000];
  const configs = [
    defaultToolSearchConfig(),
    parseToolSearchConfig({ listing_max_tokens: 60_000, threshold_pct: 10 }).config,
  ];

  for (const name of catalogs) {
    it(`keeps the measured listing within budget for ${name} at every context size`, () => {
      const toolsets: Toolset[] = loadSharedCatalog(name);
      for (const config of configs) {
        for (const contextTokens of contexts) {
          const { result } = assembleSession({ toolsets, config, contextTokens });
          const label = `${name} ctx=${contextTokens} cap=${config.listing_max_tokens}`;
          expect(result.activated, label).toBe(true);
          expect(result.listing_tokens, label).toBeLessThanOrEqual(result.budget_tokens);
          // Recounted by tiktoken's own encoder, not by the counter that produced the number.
          expect(result.listing_tokens, label).toBe(
            result.listing === null ? 0 : tokenCounter().countDirect(result.listing),
          );
          for (const t of result.tools) expect((t as OpenAiTool).function.name).toMatch(MODEL_NAME_PATTERN);
        }
      }
    }, 120_000);
  }
});
reportSharedDataSkip(it.skip);
