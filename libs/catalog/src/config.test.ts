import { describe, expect, it } from 'vitest';
import { DEFAULT_CORE_TOOLS, DEFAULT_DEFER_TOOLS, parseEnableToolSearch, parseToolSearchConfig } from './config';

describe('parseToolSearchConfig', () => {
  it('gives the seed defaults when the key is missing', () => {
    const { config, warnings } = parseToolSearchConfig(undefined);
    expect(config).toMatchObject({
      enabled: 'auto',
      activation: { kind: 'on' },
      threshold_pct: 5,
      search_default_limit: 5,
      max_search_limit: 25,
      listing: 'auto',
      listing_max_tokens: 4000,
    });
    expect([...config.defer]).toEqual(DEFAULT_DEFER_TOOLS);
    // Seed 000: session_search is a core tool that is always loaded.
    expect(config.core_tools.has('session_search')).toBe(true);
    expect(config.defer.has('session_search')).toBe(false);
    expect([...config.core_tools]).toEqual(DEFAULT_CORE_TOOLS);
    expect(warnings).toEqual([]);
  });

  it('reads the legacy booleans: true is enabled auto, false is off', () => {
    expect(parseToolSearchConfig(true).config.enabled).toBe('auto');
    expect(parseToolSearchConfig(true).config.listing).toBe('auto');
    expect(parseToolSearchConfig(false).config.activation).toEqual({ kind: 'off' });
  });

  it('folds the tri-state aliases', () => {
    expect(parseToolSearchConfig({ enabled: 'yes' }).config.enabled).toBe('on');
    expect(parseToolSearchConfig({ enabled: true }).config.enabled).toBe('on');
    expect(parseToolSearchConfig({ enabled: ' OFF ' }).config.enabled).toBe('off');
    expect(parseToolSearchConfig({ enabled: 0 }).config.enabled).toBe('off');
    expect(parseToolSearchConfig({ listing: 'false' }).config.listing).toBe('off');
  });

  it('falls back to auto with a warning for an unknown enabled value', () => {
    const { config, warnings } = parseToolSearchConfig({ enabled: 'maybe', listing: 'perhaps' });
    expect(config.enabled).toBe('auto');
    expect(config.listing).toBe('auto');
    expect(warnings.join('\n')).toContain('tools.tool_search.enabled');
    expect(warnings.join('\n')).toContain('tools.tool_search.listing');
  });

  it('treats a top-level string as the tri-state it names', () => {
    expect(parseToolSearchConfig('off').config.activation).toEqual({ kind: 'off' });
    const odd = parseToolSearchConfig(42);
    expect(odd.config.enabled).toBe('auto');
    expect(odd.warnings[0]).toContain('expected a mapping');
  });

  it('clamps the search limits and keeps the default within the maximum', () => {
    const { config, warnings } = parseToolSearchConfig({ search_default_limit: 999, max_search_limit: 999 });
    expect(config.max_search_limit).toBe(50);
    expect(config.search_default_limit).toBe(50);
    expect(warnings).toHaveLength(2);
    expect(parseToolSearchConfig({ max_search_limit: 3 }).config.search_default_limit).toBe(3);
    expect(parseToolSearchConfig({ max_search_limit: 0 }).config.max_search_limit).toBe(1);
  });

  it('clamps threshold_pct and listing_max_tokens into their ranges', () => {
    expect(parseToolSearchConfig({ threshold_pct: -3 }).config.threshold_pct).toBe(0);
    expect(parseToolSearchConfig({ threshold_pct: 150 }).config.threshold_pct).toBe(100);
    expect(parseToolSearchConfig({ threshold_pct: '2.5' }).config.threshold_pct).toBe(2.5);
    expect(parseToolSearchConfig({ listing_max_tokens: 10 }).config.listing_max_tokens).toBe(200);
    expect(parseToolSearchConfig({ listing_max_tokens: 1e9 }).config.listing_max_tokens).toBe(60_000);
  });

  it('uses the default with a warning for an unparseable number', () => {
    const { config, warnings } = parseToolSearchConfig({ threshold_pct: 'lots', listing_max_tokens: null });
    expect(config.threshold_pct).toBe(5);
    expect(config.listing_max_tokens).toBe(4000);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('threshold_pct');
  });

  it('replaces the curated defer set with a user list, and [] defers no core tool', () => {
    expect([...parseToolSearchConfig({ defer: ['terminal'] }).config.defer]).toEqual(['terminal']);
    expect(parseToolSearchConfig({ defer: [] }).config.defer.size).toBe(0);
    expect([...parseToolSearchConfig({ defer: [' todo_list ', '', 'todo_list'] }).config.defer]).toEqual(['todo_list']);
  });

  it('warns about a scalar defer value and keeps the curated default', () => {
    const { config, warnings } = parseToolSearchConfig({ defer: 'todo_list' });
    expect([...config.defer]).toEqual(DEFAULT_DEFER_TOOLS);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('tools.tool_search.defer');
    expect(warnings[0]).toContain('list of tool names');
  });

  it('reports unknown keys without failing', () => {
    const { warnings } = parseToolSearchConfig({ auto_token_threshold: 8000 });
    expect(warnings[0]).toContain('auto_token_threshold');
  });

  it('accepts auto:N as the enabled value', () => {
    expect(parseToolSearchConfig({ enabled: 'auto:7' }).config.activation).toEqual({ kind: 'budget', pct: 7 });
  });

  it('lets ENABLE_TOOL_SEARCH override enabled', () => {
    expect(parseToolSearchConfig({ enabled: 'off' }, { enableToolSearch: 'auto:5' }).config.activation).toEqual({
      kind: 'budget',
      pct: 5,
    });
    expect(parseToolSearchConfig({ enabled: 'on' }, { enableToolSearch: 'false' }).config.activation).toEqual({
      kind: 'off',
    });
    expect(parseToolSearchConfig({ enabled: 'off' }, { enableToolSearch: '' }).config.activation).toEqual({
      kind: 'off',
    });
  });

  it('ignores an invalid ENABLE_TOOL_SEARCH with a warning', () => {
    const { config, warnings } = parseToolSearchConfig({ enabled: 'off' }, { enableToolSearch: 'sometimes' });
    expect(config.activation).toEqual({ kind: 'off' });
    expect(warnings[0]).toContain('ENABLE_TOOL_SEARCH');
  });
});

describe('routing rules', () => {
  it('keeps well-formed rules', () => {
    const { config, warnings } = parseToolSearchConfig({
      routing: [
        { when: 'refund|invoice', tools: ['support__search_refund_policy'], pin: true },
        { tools: ['server:billing', '*_invoice'], boost: 2 },
        { tools: ['*delete*'], confirm: true },
      ],
    });
    expect(warnings).toEqual([]);
    expect(config.routing).toEqual([
      { when: 'refund|invoice', tools: ['support__search_refund_policy'], pin: true },
      { tools: ['server:billing', '*_invoice'], boost: 2 },
      { tools: ['*delete*'], confirm: true },
    ]);
  });

  it('drops a bad rule with a warning that names it and says what is wrong', () => {
    const { config, warnings } = parseToolSearchConfig({
      routing: [
        { when: '(', tools: ['x'], pin: true },
        { tools: [], boost: 2 },
        { tools: ['x'], boost: 500 },
        { tools: ['x'] },
        'nope',
        { tools: ['ok'], pin: true },
      ],
    });
    expect(config.routing).toEqual([{ tools: ['ok'], pin: true }]);
    expect(warnings).toHaveLength(5);
    expect(warnings[0]).toMatch(/^tools\.tool_search\.routing\[0\]\.when is not a valid regular expression/);
    expect(warnings[1]).toContain('routing[1].tools must be a non-empty list');
    expect(warnings[2]).toContain('routing[2].boost must be a number from 1 to 100');
    expect(warnings[3]).toContain('routing[3] does nothing');
    expect(warnings[4]).toContain('routing[4] is not a mapping');
  });
});

describe('parseEnableToolSearch', () => {
  it('maps each documented value', () => {
    expect(parseEnableToolSearch(undefined)).toBeUndefined();
    expect(parseEnableToolSearch('true')).toEqual({ kind: 'on' });
    // Seed 003: plain auto is auto:10, not always on.
    expect(parseEnableToolSearch('auto')).toEqual({ kind: 'budget', pct: 10 });
    expect(parseEnableToolSearch('false')).toEqual({ kind: 'off' });
    expect(parseEnableToolSearch('auto:5')).toEqual({ kind: 'budget', pct: 5 });
    expect(parseEnableToolSearch('AUTO:12.5')).toEqual({ kind: 'budget', pct: 12.5 });
  });

  it('clamps the percentage and rejects a missing one', () => {
    const warnings: string[] = [];
    expect(parseEnableToolSearch('auto:250', warnings)).toEqual({ kind: 'budget', pct: 100 });
    expect(parseEnableToolSearch('auto:', warnings)).toBeUndefined();
    expect(parseEnableToolSearch('auto:x', warnings)).toBeUndefined();
    expect(warnings).toHaveLength(3);
  });
});
