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
    const table = parseAssociations('backup =40 restor:22 snapshot:150 bad\nweather wind:20');
    expect(table.get('backup')).toEqual({ weight: 0.4, associations: [{ term: 'restor', weight: 0.22 }] });
    expect(table.get('weather')?.weight).toBe(1);
    expect(learnedTerm('zzzunknownzzz')).toEqual({ weight: 1, associations: [] });
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
