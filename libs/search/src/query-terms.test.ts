import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { EXPANSION } from './query-terms';
import { DEFAULT_RANKING } from './ranking-options';
import { SearchEngine } from './search-engine';
import { toSearchDocument } from './search-document';
import { learnedTerm, parseAssociations } from './term-associations';

/** A catalog holding every association target of `word`, and the word itself in one tool. */
function catalogFor(word: string, targets: readonly string[]) {
  return buildSessionTools(
    [
      toolset('a', [tool('own_tool', `${word} helper`)]),
      toolset(
        'b',
        targets.map((target, i) => tool(`tool_${i}`, `${target} thing`)),
      ),
    ],
    defaultToolSearchConfig(),
  ).deferred.map((t) => toSearchDocument(t));
}

describe('learned table', () => {
  it('parses term weights and associations, dropping malformed entries', () => {
    const table = parseAssociations(
      'backup =40 restor:22 snapshot:150 bad +archiv:30 +x:0\nweather wind:20\nrain +weather:60',
    );
    expect(table.get('backup')).toEqual({
      weight: 0.4,
      associations: [{ term: 'restor', weight: 0.22 }],
      related: [{ term: 'archiv', weight: 0.3 }],
    });
    expect(table.get('weather')?.weight).toBe(1);
    expect(table.get('rain')).toEqual({ weight: 1, associations: [], related: [{ term: 'weather', weight: 0.6 }] });
    expect(learnedTerm('zzzunknownzzz')).toEqual({ weight: 1, associations: [], related: [] });
  });

  it('gives context words of requests less weight than the words that name tools', () => {
    // Learned from the tuning requests: "curious" rarely appears in the tool that serves a request.
    expect(learnedTerm('curious').weight).toBeLessThan(0.6);
    expect(learnedTerm('weather').weight).toBeGreaterThan(learnedTerm('curious').weight);
  });
});

describe('query expansion', () => {
  it('adds associations of a weak word below the weight of the word, outside the mass, bounded in number', () => {
    const [word, entry] = ['backup', learnedTerm('backup')];
    expect(entry.associations.length).toBeGreaterThan(0);
    const engine = new SearchEngine(
      catalogFor(
        word,
        entry.associations.map((a) => a.term),
      ),
    );
    const terms = engine.queryTerms(word);
    const without = new SearchEngine(
      catalogFor(
        word,
        entry.associations.map((a) => a.term),
      ),
      {
        ...DEFAULT_RANKING,
        expand: false,
      },
    ).queryTerms(word);
    const added = terms.origins.flatMap((origin, at) => (origin === 'association' ? [at] : []));
    expect(added.length).toBeGreaterThan(0);
    expect(added.length).toBeLessThanOrEqual(EXPANSION.maxAssociations);
    for (const at of added) {
      expect(terms.weights[at]).toBeGreaterThan(0);
      expect(terms.weights[at]).toBeLessThan(terms.weights[0] as number);
      expect(terms.sources[at]).toBe(word);
    }
    expect(terms.mass).toBeCloseTo(without.mass, 9); // expansions never raise what coverage is measured against
    expect(without.origins).not.toContain('association');
  });

  it('does not expand a word many tools already share', () => {
    const shared = Array.from({ length: EXPANSION.weakDocumentFrequency + 1 }, (_, i) =>
      tool(`t${i}`, 'backup of data'),
    );
    const documents = buildSessionTools(
      [toolset('many', shared), toolset('other', [tool('restore_now', 'restore things')])],
      defaultToolSearchConfig(),
    ).deferred.map((t) => toSearchDocument(t));
    expect(new SearchEngine(documents).queryTerms('backup').origins).not.toContain('association');
  });

  it('keeps at most the bounded number of expansions however many words a request has', () => {
    const words = ['backup', 'weather', 'news', 'movie', 'translate', 'stock', 'song', 'recipe', 'trend'];
    const targets = words.flatMap((word) => learnedTerm(word).associations.map((a) => a.term));
    const documents = buildSessionTools(
      [
        toolset(
          'x',
          [...targets, ...words].map((target, i) => tool(`t${i}`, target)),
        ),
      ],
      defaultToolSearchConfig(),
    ).deferred.map((t) => toSearchDocument(t));
    const terms = new SearchEngine(documents).queryTerms(words.join(' '));
    expect(terms.origins.filter((origin) => origin === 'association').length).toBeLessThanOrEqual(
      EXPANSION.maxAssociations,
    );
  });
});

/** The first request words of the learned table with related words, and those words. */
function wordsWithRelated(count: number): { word: string; targets: string[] }[] {
  const found: { word: string; targets: string[] }[] = [];
  for (const word of ['rain', 'wipe', 'photo', 'song', 'forecast', 'invoice', 'tweet', 'stock', 'crypto', 'movie']) {
    const targets = learnedTerm(word).related.map((r) => r.term);
    if (targets.length > 0) found.push({ word, targets });
    if (found.length === count) break;
  }
  return found;
}

describe('related words (learned from request / tool pairs)', () => {
  it('adds the related words of any request word, not only weak ones, below its weight and outside the mass', () => {
    const [{ word, targets }] = wordsWithRelated(1) as [{ word: string; targets: string[] }];
    // The word is in many tools here: the co-occurrence expansion would leave it alone.
    const common = Array.from({ length: EXPANSION.weakDocumentFrequency + 2 }, (_, i) => tool(`c${i}`, `${word} info`));
    const documents = buildSessionTools(
      [
        toolset('many', common),
        toolset(
          't',
          targets.map((target, i) => tool(`r${i}`, `${target} thing`)),
        ),
      ],
      defaultToolSearchConfig(),
    ).deferred.map((t) => toSearchDocument(t));
    const terms = new SearchEngine(documents).queryTerms(word);
    const without = new SearchEngine(documents, { ...DEFAULT_RANKING, relate: false }).queryTerms(word);
    const added = terms.origins.flatMap((origin, at) => (origin === 'related' ? [at] : []));
    expect(added.length).toBeGreaterThan(0);
    for (const at of added) {
      expect(targets).toContain(terms.terms[at]);
      expect(terms.sources[at]).toBe(word);
      expect(terms.weights[at]).toBeGreaterThan(0);
      expect(terms.weights[at]).toBeLessThan(terms.weights[0] as number);
    }
    expect(terms.mass).toBeCloseTo(without.mass, 9);
    expect(without.origins).not.toContain('related');
  });

  it('keeps at most the bounded number of related words however many words a request has', () => {
    const found = wordsWithRelated(10);
    expect(found.length).toBeGreaterThan(2);
    const documents = buildSessionTools(
      [
        toolset(
          'x',
          found.flatMap(({ word, targets }) => [word, ...targets]).map((text, i) => tool(`t${i}`, text)),
        ),
      ],
      defaultToolSearchConfig(),
    ).deferred.map((t) => toSearchDocument(t));
    const terms = new SearchEngine(documents).queryTerms(found.map(({ word }) => word).join(' '));
    const related = terms.origins.filter((origin) => origin === 'related').length;
    expect(related).toBeGreaterThan(0);
    expect(related).toBeLessThanOrEqual(EXPANSION.maxRelated);
  });
});

describe('related words of Japanese and Chinese requests, and their bound', () => {
  const documents = buildSessionTools(
    [
      toolset('w', [tool('get_forecast', 'weather forecast for a city'), tool('get_stock_quote', 'stock price quote')]),
      toolset(
        'o',
        Array.from({ length: 40 }, (_, i) => tool(`other_${i}`, `other thing ${i}`)),
      ),
    ],
    defaultToolSearchConfig(),
  ).deferred.map((t) => toSearchDocument(t));

  it('gives a CJK pair of characters the English tool words its requests were served by', () => {
    const pair = ['天気', '天气'].find((word) => learnedTerm(word).related.some((r) => r.term === 'weather'));
    expect(pair, 'the learned table relates a CJK pair to "weather"').toBeDefined();
    const terms = new SearchEngine(documents, { ...DEFAULT_RANKING, translate: false }).queryTerms(
      `${pair as string}はどう`,
    );
    const at = terms.terms.findIndex((term, i) => term === 'weather' && terms.origins[i] === 'related');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(terms.sources[at]).toBe(pair);
  });

  it('adds none to a request too long to expand', () => {
    const words = Array.from({ length: EXPANSION.maxTermsToExpand + 1 }, (_, i) => `filler${i}`);
    const terms = new SearchEngine(documents).queryTerms(`rain ${words.join(' ')}`);
    expect(learnedTerm('rain').related.length).toBeGreaterThan(0);
    expect(terms.origins).not.toContain('related');
    expect(new SearchEngine(documents).queryTerms('rain').origins).toContain('related');
  });
});
