import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ExampleVotes, loadExampleTable, NOTHING_SLOT, type ExampleVote } from './example-requests';
import { knownToolSlots } from './known-tools';
import { fuseVotes } from './vote-fusion';
import type { SearchHit } from './search-types';

const hit = (index: number, score: number): SearchHit => ({ index, name: `tool${index}`, score, reason: 'bm25' });
const ranked = [hit(0, 10), hit(1, 9), hit(2, 8), hit(3, 7), hit(4, 6), hit(5, 5)];
const vote = (index: number, place: number): ExampleVote => ({
  index,
  place,
  score: 20 - place,
  share: (20 - place) / 40,
});
/** Every tool has examples. */
const all = () => true;

const here = dirname(fileURLToPath(import.meta.url));

describe('fuseVotes', () => {
  it('lifts the tools the examples vote for by reciprocal rank, on the answer score scale', () => {
    const fused = fuseVotes(ranked, [vote(4, 0), vote(0, 1)], (index) => `new${index}`, 5, all);
    expect(fused?.map((entry) => entry.index)).toEqual([0, 4, 1, 2, 3]);
    // 1/10 + 1/11 for tool 0 (first in both), 1/14 + 1/10 for tool 4: tool 0 keeps the first score.
    expect(fused?.[0]?.score).toBe(10);
    const scores = fused?.map((entry) => entry.score) ?? [];
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('adds a tool only the examples found, marked as theirs', () => {
    const fused = fuseVotes(ranked, [vote(9, 0)], (index) => `new${index}`, 5, all);
    const found = fused?.find((entry) => entry.index === 9);
    expect(found).toMatchObject({ name: 'new9', reason: 'examples' });
    expect(fused?.length).toBe(5);
  });

  it('gives copies of one tool the same place', () => {
    const fused = fuseVotes(ranked, [vote(5, 0), vote(4, 0)], (index) => `new${index}`, 6, all);
    const places = fused?.map((entry) => entry.index) ?? [];
    expect(Math.abs(places.indexOf(5) - places.indexOf(4))).toBe(1);
  });

  it("leaves the tools without examples (a tenant's own) where they were", () => {
    const own = (index: number) => index === 0 || index === 2;
    // Votes for tools in places 1, 3 and 4 and for one outside the ranking (tools 1 and 3 then tie:
    // the answer's order decides); the tool in place 5 falls out for it.
    const fused = fuseVotes(
      ranked,
      [vote(4, 0), vote(3, 1), vote(9, 2), vote(1, 3)],
      (index) => `new${index}`,
      6,
      (index) => !own(index),
    );
    expect(fused?.[0]?.index).toBe(0);
    expect(fused?.[2]?.index).toBe(2);
    expect(fused?.map((entry) => entry.index)).toEqual([0, 4, 2, 1, 3, 9]);
    // Each place keeps its score: the scores still fall down the list.
    expect(fused?.slice(0, 5).map((entry) => entry.score)).toEqual([10, 9, 8, 7, 6]);
  });

  it('is undefined when there is no vote or the order does not change', () => {
    expect(fuseVotes(ranked, [], (index) => `${index}`, 5, all)).toBeUndefined();
    expect(fuseVotes(ranked, [vote(0, 0), vote(1, 1)], (index) => `${index}`, 5, all)).toBeUndefined();
    expect(fuseVotes([], [vote(0, 0)], (index) => `${index}`, 5, all)).toBeUndefined();
  });
});

describe('ExampleVotes', () => {
  it('has no votes for a catalog whose tools nobody wrote examples for', () => {
    const documents = [
      {
        name: 'acme__ship_widget',
        originalName: 'ship_widget',
        description: 'Ships a widget from the Acme warehouse.',
      },
      { name: 'acme__count_widgets', originalName: 'count_widgets', description: 'Counts widgets in stock.' },
    ].map((document) => ({
      ...document,
      label: 'acme',
      parameters: [],
      parameterDocs: '',
      tags: [],
      sourceDescription: '',
    }));
    expect(ExampleVotes.of(documents)).toBeUndefined();
  });
});

describe('the generated example index', () => {
  it('was written for the known-tools list and the analyzer of this build, and adds up', () => {
    // Throws when `scripts/example-requests.ts` was not run after the training requests, the
    // known-tools list or the analyzer changed.
    const table = loadExampleTable();
    expect(table.tools.length).toBeGreaterThan(0);
    expect(table.terms.length).toBeGreaterThan(0);
    // Ascending term digests: what the binary search reads.
    expect(table.terms.every((digest, at) => at === 0 || digest > (table.terms[at - 1] as number))).toBe(true);
    expect(table.examples.reduce((most, example) => Math.max(most, example), 0)).toBeLessThan(table.tools.length);
  });

  it('holds the requests no tool serves as examples of no known tool', () => {
    const { tools } = loadExampleTable();
    const nothing = tools.filter((tool) => tool === NOTHING_SLOT).length;
    const lines = readFileSync(resolve(here, '../training/no-capability-requests.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '').length;
    expect(nothing).toBe(lines);
    expect(tools.every((tool) => tool === NOTHING_SLOT || tool < knownToolSlots().size)).toBe(true);
  });
});
