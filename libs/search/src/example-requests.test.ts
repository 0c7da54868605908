import { describe, expect, it } from 'vitest';
import { ExampleVotes, fuseVotes, type ExampleVote } from './example-requests';
import type { SearchHit } from './search-types';

const hit = (index: number, score: number): SearchHit => ({ index, name: `tool${index}`, score, reason: 'bm25' });
const ranked = [hit(0, 10), hit(1, 9), hit(2, 8), hit(3, 7), hit(4, 6), hit(5, 5)];
const vote = (index: number, place: number): ExampleVote => ({ index, place, score: 20 - place });

describe('fuseVotes', () => {
  it('lifts the tools the examples vote for by reciprocal rank, on the answer score scale', () => {
    const fused = fuseVotes(ranked, [vote(4, 0), vote(0, 1)], (index) => `new${index}`, 5);
    expect(fused?.map((entry) => entry.index)).toEqual([0, 4, 1, 2, 3]);
    // 1/10 + 1/11 for tool 0 (first in both), 1/14 + 1/10 for tool 4: tool 0 keeps the first score.
    expect(fused?.[0]?.score).toBe(10);
    const scores = fused?.map((entry) => entry.score) ?? [];
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('adds a tool only the examples found, marked as theirs', () => {
    const fused = fuseVotes(ranked, [vote(9, 0)], (index) => `new${index}`, 5);
    const found = fused?.find((entry) => entry.index === 9);
    expect(found).toMatchObject({ name: 'new9', reason: 'examples' });
    expect(fused?.length).toBe(5);
  });

  it('gives copies of one tool the same place', () => {
    const fused = fuseVotes(ranked, [vote(5, 0), vote(4, 0)], (index) => `new${index}`, 6);
    const places = fused?.map((entry) => entry.index) ?? [];
    expect(Math.abs(places.indexOf(5) - places.indexOf(4))).toBe(1);
  });

  it('is undefined when there is no vote or the order does not change', () => {
    expect(fuseVotes(ranked, [], (index) => `${index}`, 5)).toBeUndefined();
    expect(fuseVotes(ranked, [vote(0, 0), vote(1, 1)], (index) => `${index}`, 5)).toBeUndefined();
    expect(fuseVotes([], [vote(0, 0)], (index) => `${index}`, 5)).toBeUndefined();
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
