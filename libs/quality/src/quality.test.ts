import { describe, expect, it } from 'vitest';
import {
  buildSessionTools,
  defaultToolSearchConfig,
  ToolsetSchema,
  type ToolDefinitionInput,
} from '@toolsearch/catalog';
import { SearchEngine, toSearchDocument } from '@toolsearch/search';
import { tool, toolset } from '@toolsearch/testing';
import { formatCard, isVagueName, lintCatalog, selfQuery, toolCard } from './index';

// Seed 002's registry example, written anew: an after-sales desk with three tools.
const refund: ToolDefinitionInput = {
  name: 'search_refund_policy',
  description:
    '返金・請求書・住所変更といったアフターサービスの規定を調べる。注文のリアルタイムの状況確認には使わない。',
  tags: ['policy', 'refund', 'invoice', '返金', '請求書', '規定'],
  inputSchema: {
    type: 'object',
    properties: { keyword: { type: 'string', description: '調べたい語', examples: ['返金'] } },
    required: ['keyword'],
  },
  outputSchema: { type: 'object', properties: { policy_text: { type: 'string' } } },
  risk: 'low',
};
const order: ToolDefinitionInput = {
  name: 'get_order_status',
  description: '注文がいまどの段階にあるか（未発送・発送済み・配達済み）を確認する。',
  tags: ['order', 'status', 'shipping', '注文', '発送', '状況'],
  inputSchema: {
    type: 'object',
    properties: { order_id: { type: 'string', description: '注文番号' } },
    required: ['order_id'],
  },
  risk: 'medium',
};
const calculator: ToolDefinitionInput = {
  name: 'calculator',
  description: '手数料の合計や差額など、四則演算で決まる数値計算をする。',
  tags: ['math', 'fee', 'total', '計算', '手数料', '合計', '差額'],
  inputSchema: {
    type: 'object',
    properties: { expression: { type: 'string', description: '計算式', example: '299 + 80 - 5' } },
    required: ['expression'],
  },
  risk: 'low',
};
const faq: ToolDefinitionInput = {
  name: 'search_faq',
  description: '返金・請求書・住所変更といったアフターサービスのよくある質問を調べる。',
  inputSchema: {
    type: 'object',
    properties: { keyword: { type: 'string', description: '調べたい語' } },
    required: ['keyword'],
  },
  risk: 'low',
};

const tableOf = (...tools: ToolDefinitionInput[]) =>
  buildSessionTools([toolset('support', tools)], defaultToolSearchConfig()).deferred;

describe('the after-sales registry of seed 002', () => {
  it('finds the right tool first for each of its three requests', () => {
    const tools = tableOf(refund, order, calculator);
    const engine = new SearchEngine(tools.map((t) => toSearchDocument(t)));
    const first = (query: string) => engine.search(query, 3)[0]?.name;
    expect(first('返金の規定を教えて')).toBe('support__search_refund_policy');
    expect(first('注文はもう発送されましたか')).toBe('support__get_order_status');
    expect(first('手数料の合計として 299 に 80 を足して 5 を引く')).toBe('support__calculator');
  });

  it('flags a new search_faq without distinguishing tags as confusable with the refund policy tool', () => {
    const report = lintCatalog(tableOf(refund, order, calculator, faq));
    const pairs = report.findings
      .filter((f) => f.code === 'CONFUSABLE')
      .map((f) => [f.tool, f.details?.['other']].sort());
    expect(pairs).toContainEqual(['support__search_faq', 'support__search_refund_policy']);
    const finding = report.findings.find((f) => f.code === 'CONFUSABLE');
    expect(finding?.fix).toContain('separating terms');
    const separating = finding?.details?.['separating'] as Record<string, string[]>;
    expect(Object.values(separating).some((terms) => terms.length > 0)).toBe(true);
  });

  it('raises no finding for the three well-described tools alone', () => {
    const report = lintCatalog(tableOf(refund, order, calculator));
    expect(report.findings.filter((f) => f.severity !== 'info')).toEqual([]);
    expect(report.servers).toEqual([{ server: 'support', tools: 3, score: 100, findings: 0 }]);
  });
});

describe('lintCatalog', () => {
  const findingsOf = (...tools: ToolDefinitionInput[]) => lintCatalog(tableOf(...tools)).findings;
  const codes = (...tools: ToolDefinitionInput[]) => findingsOf(...tools).map((f) => `${f.tool}:${f.code}`);

  it('reports empty and very short descriptions', () => {
    const found = codes(
      tool('list_invoices', ''),
      tool('list_customers', 'Lists.'),
      tool('get_weather', 'Current weather, wind and temperature for a city.', ['city']),
    );
    expect(found).toContain('support__list_invoices:EMPTY_DESCRIPTION');
    expect(found).toContain('support__list_customers:SHORT_DESCRIPTION');
    expect(
      found.filter((f) => f.startsWith('support__get_weather:') && !f.endsWith('PARAM_WITHOUT_DESCRIPTION')),
    ).toEqual([]);
  });

  it('reports names that say nothing about the purpose', () => {
    expect(isVagueName('query_42')).toBe(true);
    expect(isVagueName('doAction2')).toBe(true);
    expect(isVagueName('search_refund_policy')).toBe(false);
    expect(codes(tool('query_42', 'Look up the shipping rules for international parcels.'))).toContain(
      'support__query_42:VAGUE_NAME',
    );
  });

  it('reports a tool its own key words do not find', () => {
    const crowd = Array.from({ length: 6 }, (_, i) =>
      tool(`sync_calendar_${i}`, `Sync the team calendar events and meeting rooms, batch ${i}.`),
    );
    const lost = tool('helper', 'Sync the team calendar events and meeting rooms.');
    const finding = findingsOf(...crowd, lost).find(
      (f) => f.tool === 'support__helper' && f.code === 'NOT_SELF_RETRIEVABLE',
    );
    expect(finding?.details).toMatchObject({ query: 'Sync team calendar events meeting rooms' });
  });

  it("shows confusable tools' separating terms as the catalog's own words, not their stems", () => {
    const found = findingsOf(
      tool('list_repositories', 'List the repositories of an individual user, with their stars and activity.'),
      tool('list_user_repositories', 'List the repositories of a user, with their stars and languages.'),
    ).find((f) => f.code === 'CONFUSABLE');
    const separating = found?.details?.['separating'] as Record<string, string[]>;
    expect(separating).toEqual({
      support__list_repositories: ['individual', 'activity'],
      support__list_user_repositories: ['languages'],
    });
  });

  it('reports write tools without a declared risk, and not read tools or declared ones', () => {
    const found = codes(
      tool('delete_repository', 'Delete a repository and all of its issues permanently.'),
      tool('list_repositories', 'List the repositories of an account, newest first.'),
      tool('create_branch', 'Create a branch from an existing branch.', [], [], { risk: 'medium' }),
      tool('archive', 'Marks a board as finished and hides it from lists.', [], [], {
        annotations: { destructiveHint: true },
      }),
    );
    expect(found).toContain('support__delete_repository:WRITE_WITHOUT_RISK');
    expect(found).toContain('support__archive:WRITE_WITHOUT_RISK');
    expect(found).not.toContain('support__list_repositories:WRITE_WITHOUT_RISK');
    expect(found).not.toContain('support__create_branch:WRITE_WITHOUT_RISK');
  });

  it('reports parameters without descriptions', () => {
    const finding = findingsOf(
      tool('get_weather', 'Current weather, wind and temperature for a city.', ['city', 'units']),
    ).find((f) => f.code === 'PARAM_WITHOUT_DESCRIPTION');
    expect(finding?.details).toEqual({ parameters: ['city', 'units'] });
    expect(finding?.severity).toBe('info');
  });

  it('scores servers and counts findings by code, and reports progress', () => {
    const progress: number[] = [];
    const report = lintCatalog(tableOf(tool('x', ''), refund), { onProgress: (done) => progress.push(done) });
    expect(report.counts.EMPTY_DESCRIPTION).toBe(1);
    expect(report.servers[0]?.score).toBeLessThan(100);
    expect(progress).toEqual([1, 2]);
  });

  it("makes the self query from the description's content words", () => {
    expect(selfQuery('Create a new issue in the repository of the user.')).toBe('Create new issue repository user');
  });
});

describe('toolCard', () => {
  it('answers the five questions, with the sources of risk', () => {
    const [card] = tableOf(refund).map(toolCard);
    expect(card).toMatchObject({
      name: 'support__search_refund_policy',
      tool: 'search_refund_policy',
      source: { kind: 'mcp', toolset: 'mcp-support', label: 'support' },
      what: '返金・請求書・住所変更といったアフターサービスの規定を調べる。',
      when: '注文のリアルタイムの状況確認には使わない。',
      arguments: [{ name: 'keyword', type: 'string', required: true, description: '調べたい語', example: '返金' }],
      returns: [{ name: 'policy_text', type: 'string' }],
      risk: { level: 'low', basis: 'declared' },
      tags: ['policy', 'refund', 'invoice', '返金', '請求書', '規定'],
    });
  });

  it('derives risk from annotations, then defaults to medium', () => {
    const [destructive, readOnly, plain] = tableOf(
      tool('drop_table', 'Drop a table.', [], [], { annotations: { destructiveHint: true } }),
      tool('list_tables', 'List tables.', [], [], { annotations: { readOnlyHint: true } }),
      tool('vacuum', 'Reclaim space.'),
    ).map(toolCard);
    expect(destructive?.risk).toEqual({ level: 'high', basis: 'destructiveHint' });
    expect(readOnly?.risk).toEqual({ level: 'low', basis: 'readOnlyHint' });
    expect(plain?.risk).toEqual({ level: 'medium', basis: 'default' });
  });

  it("uses the toolset's declared risk when the tool has none, and says when nothing is known", () => {
    const table = buildSessionTools(
      [ToolsetSchema.parse({ id: 'ops', kind: 'plugin', risk: 'high', tools: [{ name: 'restart_service' }] })],
      defaultToolSearchConfig(),
    );
    const [first] = table.deferred;
    if (first === undefined) throw new Error('the toolset has a tool');
    const card = toolCard(first);
    expect(card).toMatchObject({
      what: null,
      when: null,
      arguments: [],
      returns: null,
      risk: { level: 'high', basis: 'declared' },
    });
    expect(formatCard(card)).toContain('no description');
  });

  it('picks up "when to use" sentences in English', () => {
    const [card] = tableOf(
      tool(
        'search_docs',
        'Search the knowledge base. Use this when the user asks how a feature works. Do not use it for billing questions.',
      ),
    ).map(toolCard);
    expect(card?.when).toBe('Use this when the user asks how a feature works. Do not use it for billing questions.');
  });
});
