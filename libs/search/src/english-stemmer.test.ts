import { readFileSync } from 'node:fs';
import { newStemmer } from 'snowball-stemmers';
import { describe, expect, it } from 'vitest';
import { hasSharedData, reportSharedDataSkip, SHARED_CATALOGS, sharedDataPath } from '@toolsearch/testing';
import { stemEnglish } from './english-stemmer';

const reference = newStemmer('english');

/** Words whose stems differ between the two, with both stems (empty when they agree). */
function disagreements(words: Iterable<string>): string[] {
  const out: string[] = [];
  for (const word of words) {
    const expected = reference.stem(word);
    const actual = stemEnglish(word);
    if (actual !== expected) out.push(`${word}: ${actual} (reference ${expected})`);
  }
  return out;
}

// Stems and suffixes that reach every step of the algorithm, combined into many words.
const ROOTS = (
  'run hop hope fit fail sing gener commun arsen univers happi cry say play toy fly sky news ' +
  'national ration relat condit digit format organ visual special hesit generous communic ' +
  'ski die lie tie idl gentl ugl earl onl singl atlas cosmos bias andes howe inn out cann herr ' +
  'earr proce exce succe agre feed bled plan tap tape control abl ibl ent ment ement allow ' +
  'sens rational electr logic analog geolog archaeolog hope sav yell yield bay eye ey y ' +
  'a be by at it is on an us ss bus gas kiwi tax box saw mix fix new sew bow'
).split(' ');
const SUFFIXES = (
  ' s es ed ing ly edly ingly eed eedly ied ies sses us ss y ies ational tional enci anci abli entli izer ization ' +
  'ation ator alism aliti alli fulness ousli ousness iveness iviti biliti bli ogi fulli lessli li ' +
  'alize icate iciti ical ful ness ative al ance ence er ic able ible ant ement ment ent ism ate iti ' +
  'ous ive ize ion sion tion e l ll at bl iz bb dd ff gg mm nn pp rr tt'
).split(' ');

describe('stemEnglish', () => {
  it('stems like the snowball-stemmers package on words built to reach every rule', () => {
    const words = new Set<string>();
    for (const root of ROOTS) for (const suffix of SUFFIXES) words.add(`${root}${suffix}`);
    expect(words.size).toBeGreaterThan(5000);
    expect(disagreements(words)).toEqual([]);
  });

  it.skipIf(!hasSharedData())('stems like the package on every word of the public catalogs', () => {
    const words = new Set<string>();
    for (const file of Object.values(SHARED_CATALOGS)) {
      for (const word of readFileSync(sharedDataPath(file), 'utf8')
        .toLowerCase()
        .match(/[a-z]+/g) ?? [])
        words.add(word);
    }
    expect(words.size).toBeGreaterThan(20_000);
    expect(disagreements(words)).toEqual([]);
  });

  it('leaves short words, exceptions and property names of objects alone', () => {
    expect(stemEnglish('at')).toBe('at');
    expect(stemEnglish('news')).toBe('news');
    expect(stemEnglish('skies')).toBe('sky');
    expect(stemEnglish('constructor')).toBe(reference.stem('constructor'));
    expect(stemEnglish('tostring')).toBe(reference.stem('tostring'));
  });

  it('leaves words longer than any English word as they are, however long', () => {
    const run = 'running'.repeat(40_000);
    const started = performance.now();
    expect(stemEnglish(run)).toBe(run);
    expect(performance.now() - started).toBeLessThan(50);
    expect(stemEnglish('internationalizations')).toBe(reference.stem('internationalizations'));
  });
  reportSharedDataSkip(it.skip);
});
