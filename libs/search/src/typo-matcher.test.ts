import { describe, expect, it } from 'vitest';
import { stem } from './analyzer';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { SearchEngine } from './search-engine';
import { toSearchDocument } from './search-document';
import { TYPO_LIMITS, TypoMatcher } from './typo-matcher';

const engine = new SearchEngine(
  buildSessionTools(
    [
      toolset('fs', [
        tool('read_file', 'Read a file from the filesystem', ['path']),
        tool('write_file', 'Write a file to the filesystem', ['path']),
      ]),
      toolset('weather', [
        tool('get_forecast', 'Weather forecast for a location'),
        tool('get_alerts', 'Weather alerts for a location'),
      ]),
    ],
    defaultToolSearchConfig(),
  ).deferred.map((t) => toSearchDocument(t)),
);
const typos = (query: string) => {
  const terms = engine.queryTerms(query);
  return terms.terms.filter((_, at) => terms.origins[at] === 'typo');
};

describe('TypoMatcher', () => {
  it('corrects a word within one edit to a catalog term, at reduced weight', () => {
    const terms = engine.queryTerms('weathr');
    expect(terms.terms).toEqual(['weather']);
    expect(terms.origins).toEqual(['typo']);
    expect(terms.sources).toEqual(['weathr']);
    expect(terms.weights[0]).toBeLessThan(1);
    expect(engine.search('weathr alerts', 1).map((hit) => hit.name)).toEqual(['weather__get_alerts']);
  });

  it('allows two edits only for long words', () => {
    expect(typos('filesytem')).toEqual(['filesystem']); // 9 letters: up to two edits
    expect(typos('forcst')).toEqual([]); // 6 letters, two edits from "forecast": too far
  });

  it('matches nothing for nonsense, short words or known words', () => {
    expect(typos('xqzvbnmw qqqqq')).toEqual([]);
    expect(typos('alrt')).toEqual([]); // under the minimum length
    expect(engine.search('xqzvbnmw qqqqq', 5)).toEqual([]);
    // "three" is a real word (some public tool or request uses it): never a typo of "threw".
    const matcher = new TypoMatcher([['threw', 0]], () => 5);
    expect(matcher.match('three')).toBeUndefined();
    expect(matcher.match('thref')?.term).toBe('threw');
    // Common English words no public tool uses are real words too (a catalog with MongoDB tools
    // and a request about a mango).
    const mongo = new TypoMatcher(
      [
        ['mongo', 0],
        ['refin', 1],
      ],
      () => 5,
    );
    expect(mongo.match(stem('mango'))).toBeUndefined();
    expect(mongo.match(stem('refill'))).toBeUndefined();
    expect(mongo.match('mongp')?.term).toBe('mongo');
  });

  it('looks at no more than a few unknown words, so a long request costs little', () => {
    const words = Array.from({ length: 2_000 }, (_, i) => `weathr${String.fromCharCode(97 + (i % 26))}zz${i}`);
    const started = performance.now();
    const terms = engine.queryTerms(words.join(' '));
    expect(performance.now() - started).toBeLessThan(200);
    expect(terms.origins.filter((origin) => origin === 'typo').length).toBeLessThanOrEqual(
      TYPO_LIMITS.maxTermsPerQuery,
    );
  });

  it('analyses a bounded prefix of a pasted blob, quickly', () => {
    const blob = 'weathr '.repeat(200_000);
    const started = performance.now();
    const terms = engine.queryTerms(blob);
    expect(performance.now() - started).toBeLessThan(500);
    expect(terms.terms).toEqual(['weather']);
  });

  it('ignores terms too long to be words', () => {
    const matcher = new TypoMatcher([['a'.repeat(30), 0]], () => 9);
    expect(matcher.match('a'.repeat(29))).toBeUndefined();
  });
});
