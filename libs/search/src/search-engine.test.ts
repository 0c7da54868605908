import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { engineOf, names } from '../test/engine-fixture';
import { SearchEngine } from './search-engine';
import { learnedTerm } from './term-associations';
import { toSearchDocument } from './search-document';

const catalog = engineOf(
  [
    'github',
    [
      tool('github_create_issue', 'Open a new issue in a GitHub repository', ['title', 'body']),
      tool('github_search_repos', 'Search GitHub for matching repositories', ['query']),
      tool('github_list_issues', 'List issues in a repository', ['repo']),
    ],
  ],
  ['slack', [tool('slack_send_message', 'Post a message into a Slack channel', ['channel', 'text'])]],
  ['calendar', [tool('calendar_create_event', "Add an event to the user's calendar", ['title', 'start'])]],
  ['linear', [tool('create_ticket', 'Create a ticket in a team.'), tool('get_ticket', 'Fetch one ticket.')]],
  [
    'jp-transit',
    [
      tool('search_route', '出発駅から到着駅までの乗換案内を検索します。'),
      tool('train_status', '路線の運行状況を取得します。'),
    ],
  ],
  ['crm', [tool('getCustomerProfile', 'Returns a record.')]],
);

describe('SearchEngine', () => {
  it('finds create_issue for "issues" through stemming (seed 000)', () => {
    expect(names(catalog, 'issues')).toContain('github__github_create_issue');
    expect(names(catalog, 'issues')).toContain('github__github_list_issues');
  });

  it('ranks the obvious tool first for a natural request', () => {
    expect(names(catalog, 'create a github issue')[0]).toBe('github__github_create_issue');
    expect(names(catalog, 'send a slack message')[0]).toBe('slack__slack_send_message');
    expect(names(catalog, 'schedule an event in my calendar')[0]).toBe('calendar__calendar_create_event');
  });

  it("finds a server's tools by the server name alone", () => {
    expect(names(catalog, 'linear')).toEqual(['linear__create_ticket', 'linear__get_ticket']);
  });

  it('puts an exact model-facing or original name first', () => {
    expect(names(catalog, 'github__github_list_issues', 1)).toEqual(['github__github_list_issues']);
    expect(names(catalog, 'slack_send_message', 1)).toEqual(['slack__slack_send_message']);
    expect(catalog.search('github_create_issue', 1)[0]?.reason).toBe('exact');
  });

  it('ranks an exact short name above longer siblings', () => {
    const engine = engineOf(['x', [tool('list_all_the_open_items'), tool('list_x'), tool('list')]]);
    expect(names(engine, 'list', 1)).toEqual(['x__list']);
  });

  it('respects the limit', () => {
    expect(names(catalog, 'github', 1)).toHaveLength(1);
    expect(catalog.search('github', 0)).toEqual([]);
  });

  it('falls back to tool names containing the query when no word matches (seed 000: "hub")', () => {
    const engine = engineOf(
      ['gh', [tool('github_create_issue', 'Open an issue.'), tool('github_list_repos', 'List repositories.')]],
      ['s', [tool('post_message', 'Send text.')]],
    );
    expect(engine.search('hub', 5).map((hit) => [hit.name, hit.reason])).toEqual([
      ['gh__github_create_issue', 'substring'],
      ['gh__github_list_repos', 'substring'],
    ]);
  });

  it('returns nothing for nonsense', () => {
    for (const query of ['asdf qwerty foobar', 'zzzz nonsense qqqq', 'xyzzy', '   ', '?!'])
      expect(names(catalog, query)).toEqual([]);
  });

  it('finds tools described in Japanese with a Japanese query', () => {
    expect(names(catalog, '乗換案内')[0]).toBe('jp-transit__search_route');
    expect(names(catalog, '運行状況')[0]).toBe('jp-transit__train_status');
  });

  it('finds camelCase tool names by their words', () => {
    expect(names(catalog, 'customer profile')[0]).toBe('crm__getCustomerProfile');
  });

  it('gives the same ranking every time (deterministic ties)', () => {
    const first = names(catalog, 'ticket', 5);
    for (let i = 0; i < 5; i += 1) expect(names(catalog, 'ticket', 5)).toEqual(first);
  });

  it('ranks the same whether or not each source lists its tools together', () => {
    // 8 sources × 7 tools of pseudo-random wording (no two score alike, so ties cannot hide a
    // difference); enough matches per query to fill the candidate pool and skip whole sources.
    const words = ['create', 'list', 'delete', 'update', 'file', 'issue', 'message', 'event', 'report', 'user'];
    let seed = 7;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648);
    const phrase = (length: number) => Array.from({ length }, () => words[(next() >>> 16) % words.length]).join(' ');
    const sources = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta'];
    const table = buildSessionTools(
      sources.map((source) =>
        toolset(
          source,
          Array.from({ length: 7 }, (_, t) =>
            tool(`${source}_tool_${t}`, `${phrase(3 + ((next() >>> 16) % 9))} in ${source}`),
          ),
        ),
      ),
      defaultToolSearchConfig(),
    );
    const documents = table.deferred.map((t) => toSearchDocument(t));
    // Round-robin over the sources: no two neighbours share a source.
    const interleaved = documents.flatMap((_, k) => documents[(k % 8) * 7 + Math.floor(k / 8)] ?? []);
    expect(new Set(interleaved).size).toBe(documents.length);
    expect(interleaved[0]?.label).not.toBe(interleaved[1]?.label);
    const grouped = new SearchEngine(documents);
    const mixed = new SearchEngine(interleaved);
    const ranked = (engine: SearchEngine, query: string) =>
      engine.search(query, 5).map((hit) => `${hit.name} ${hit.score.toFixed(9)}`);
    for (const query of [
      'create a file in alpha',
      'list every issue and message, then update the report for the user',
      'delete event',
      'user reports in theta',
      'message',
    ]) {
      expect(ranked(grouped, query).length).toBeGreaterThan(0);
      expect(ranked(mixed, query)).toEqual(ranked(grouped, query));
    }
  });

  it('searches an empty catalog without failing', () => {
    expect(new SearchEngine([]).search('anything', 5)).toEqual([]);
  });

  it('offers a file-writing tool for a request that saves to a path without saying "file"', () => {
    const engine = engineOf(
      [
        'notes',
        [
          tool('write_note', 'Write a note into the knowledge base', ['title', 'content']),
          tool('read_note', 'Read a note from the knowledge base', ['title']),
        ],
      ],
      [
        'fs',
        [
          tool('write_file', 'Create a new file or overwrite an existing one with new content', ['path', 'content']),
          tool('read_file', 'Read the complete contents of a file', ['path']),
        ],
      ],
      ['crypto', [tool('coin_report', 'Research report on a crypto coin', ['coin'])]],
    );
    const found = names(engine, 'Generate a deep report of bitcoin and save it in /root/markdown/bitcoin.md', 3);
    expect(found).toContain('fs__write_file');
    expect(found.indexOf('fs__write_file')).toBeLessThan(found.indexOf('fs__read_file') >>> 0);
  });

  it('finds a tool described only in Chinese from English words the glossary knows', () => {
    const engine = engineOf(
      [
        'trends',
        [
          tool('get-douyin-list', '获取抖音热搜榜单，展示当下最热门的社会话题'),
          tool('get-gcores-new', '获取机核网游戏相关资讯，包含电子游戏评测'),
        ],
      ],
      ['chess', [tool('new_game', 'Start a new chess game against the engine')]],
    );
    expect(names(engine, 'gaming news', 2)).toContain('trends__get-gcores-new');
    expect(names(engine, 'hot social topics', 1)).toEqual(['trends__get-douyin-list']);
    // The request's own words still count for more than a rendering of them.
    expect(names(engine, 'new game', 1)).toEqual(['chess__new_game']);
  });

  it('weighs glossary renderings below the words of the request', () => {
    const engine = engineOf(['trends', [tool('get-gcores-new', '获取机核网游戏相关资讯')]]);
    const terms = engine.queryTerms('game news');
    const weightOf = (term: string) => terms.weights[terms.terms.indexOf(term)];
    expect(weightOf('game')).toBeUndefined(); // no tool has the English word
    // Half the weight the request's word itself would have (its learned term weight).
    expect(weightOf('游戏')).toBeCloseTo(0.5 * learnedTerm('game').weight, 6);
    expect(weightOf('资讯')).toBeCloseTo(0.5 * learnedTerm('news').weight, 6);
    expect(weightOf('游戏')).toBeLessThanOrEqual(0.5);
  });
});
