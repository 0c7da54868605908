import { describe, expect, it } from 'vitest';
import { gateCase, nothingFits, NOTHING_WINDOW, type GateCase } from './example-gate';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import type { ExampleVoteList, ExampleVotes } from './example-requests';
import type { Bm25Index } from './bm25-index';
import { SearchEngine } from './search-engine';
import { toSearchDocument } from './search-document';
import { EXAMPLES } from './example-requests';

/** An answer whose first ten tools all have examples (unless `windowKnown` is false), the best of them scoring `supported`. */
const judged = (nothing: number, supported: number, windowKnown = true, saysMore = true): GateCase => ({
  confidence: 0.9,
  score: supported,
  share: 0.5,
  judged: 5,
  known: 5,
  sources: true,
  nothing,
  supported,
  windowKnown: () => windowKnown,
  saysMore: () => saysMore,
});

describe('nothing fits', () => {
  const { score: at, over } = EXAMPLES.nothing;

  it('withholds an answer, however confident, when a request no tool serves reads clearly closer than its tools', () => {
    expect(nothingFits(judged(at, 0))).toBe(true);
    expect(nothingFits(judged(at + 10, (at + 10) / over - 1))).toBe(true);
  });

  it('gives it on a near tie, or when the closest request scores under the threshold', () => {
    expect(nothingFits(judged(at + 10, (at + 10) / over))).toBe(false);
    expect(nothingFits(judged(at + 10, at + 10))).toBe(false);
    expect(nothingFits(judged(at - 0.5, 0))).toBe(false);
  });

  it('gives it when the first ten tools have every word of the request', () => {
    expect(nothingFits(judged(at + 10, 0, true, false))).toBe(false);
  });

  it('stays out while the examples cannot speak for a tool of the first ten: it could be the one asked for', () => {
    expect(nothingFits(judged(at + 10, 0, false))).toBe(false);
    expect(nothingFits({ ...judged(at + 10, 0), judged: 0, known: 0 })).toBe(false);
  });
});

describe('the case nothing fits judges', () => {
  const hits = Array.from({ length: 12 }, (_, index) => ({
    index,
    name: `tool${index}`,
    score: 12 - index,
    reason: 'bm25' as const,
  }));
  const votes = (entries: { index: number; score: number }[], floor = 0): ExampleVoteList =>
    Object.assign(
      entries.map((entry, place) => ({ ...entry, place, share: 0.5 })),
      { nothing: 20, floor, nothingAt: -1 },
    );
  const examplesWithout = (missing: number, publicTool = true) =>
    ({
      has: (index: number) => index !== missing,
      knowsSource: () => true,
      isPublic: (index: number) => index !== missing || publicTool,
    }) as unknown as ExampleVotes;

  it('reads the first ten tools whatever the limit: one without examples among them keeps the rule out unless the request says why not', () => {
    expect(gateCase(examplesWithout(-1), hits, votes([]), 0.9).windowKnown()).toBe(true);
    expect(gateCase(examplesWithout(NOTHING_WINDOW - 1), hits, votes([]), 0.9).windowKnown()).toBe(false);
    // Past the tenth place it no longer counts.
    expect(gateCase(examplesWithout(NOTHING_WINDOW), hits, votes([]), 0.9).windowKnown()).toBe(true);
  });

  it('lets a public tool without examples stay in the ten when it matches under two words of the request', () => {
    // A bare catalog tool found by one incidental word does not keep the rule out; one that
    // matches an action and its object does, and so does any tool the public catalogs lack. Values
    // do not count.
    const termIds = new Map([
      ['rerun', 0],
      ['workflow', 1],
      ['2024', 2],
    ]);
    const request = (toolTerms: number[]) => ({
      index: {
        termId: (term: string) => termIds.get(term),
        contribution: (term: number, doc: number) => (doc === NOTHING_WINDOW - 1 && toolTerms.includes(term) ? 1 : 0),
      } as unknown as Bm25Index,
      terms: ['rerun', 'the', 'workflow', '2024'],
    });
    const without = examplesWithout(NOTHING_WINDOW - 1);
    expect(gateCase(without, hits, votes([]), 0.9, request([0])).windowKnown()).toBe(true);
    expect(gateCase(without, hits, votes([]), 0.9, request([0, 2])).windowKnown()).toBe(true);
    expect(gateCase(without, hits, votes([]), 0.9, request([0, 1])).windowKnown()).toBe(false);
    expect(gateCase(without, hits, votes([]), 0.9).windowKnown()).toBe(false);
    // A tool the public catalogs do not have (a tenant's own) keeps the rule out on one word.
    const own = examplesWithout(NOTHING_WINDOW - 1, false);
    expect(gateCase(own, hits, votes([]), 0.9, request([0])).windowKnown()).toBe(false);
  });

  it("takes the best vote of those ten tools as their support, or the votes' floor", () => {
    expect(
      gateCase(
        examplesWithout(-1),
        hits,
        votes([
          { index: 7, score: 18 },
          { index: 11, score: 30 },
        ]),
        0.9,
      ).supported,
    ).toBe(18);
    expect(gateCase(examplesWithout(-1), hits, votes([{ index: 11, score: 30 }], 9), 0.9).supported).toBe(9);
  });
});

describe('what the request no tool serves won on', () => {
  const documents = buildSessionTools(
    [toolset('git', [tool('merge_pull_request', 'Merge a pull request on GitHub')])],
    defaultToolSearchConfig(),
  ).deferred.map((t) => toSearchDocument(t));
  const { index } = new SearchEngine(documents);
  const hits = [{ index: 0, name: 'git__merge_pull_request', score: 1, reason: 'bm25' as const }];
  const votes: ExampleVoteList = Object.assign([], { nothing: 20, floor: 0, nothingAt: 7 });
  /** Examples whose request no tool serves (example 7) counted exactly `words`. */
  const counting = (...words: string[]) =>
    ({
      has: () => true,
      knowsSource: () => true,
      counts: (example: number, term: string) => example === 7 && words.includes(term),
    }) as unknown as ExampleVotes;
  const says = (words: string[], request: string[]) =>
    gateCase(counting(...words), hits, votes, 0.9, { index, terms: request }).saysMore();

  it('is a word that counted for it and that none of the tools has', () => {
    expect(says(['merg', 'pull', 'request', 'enabl'], ['enabl', 'merg', 'pull', 'request'])).toBe(true);
  });

  it('is not a word only the tools have, nor one that did not count, nor a value', () => {
    expect(says(['merg', 'pull', 'request'], ['merg', 'alic', 'pull', 'request'])).toBe(false);
    expect(says(['merg', '4512'], ['merg', '4512'])).toBe(false);
  });
});
