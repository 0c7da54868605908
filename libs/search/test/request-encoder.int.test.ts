import { describe, expect, it } from 'vitest';
import { hasSharedData, reportSharedDataSkip } from '@toolsearch/testing';
import { unionTools } from './engine-fixture';
import { DEFAULT_RANKING, SearchEngine, toSearchDocument } from '../src/index';
import { ENCODER } from '../src/request-encoder';

// The request encoder on the 6,685-tool union: doubtful answers gain tools their words miss;
// confident ones are the lexical ranking. The requests below were written for this test. The
// example requests' votes are off here (`example-requests.int.test.ts` tests them).
describe.skipIf(!hasSharedData())('request encoder on the 6,685-tool union', () => {
  let built: { on: SearchEngine; off: SearchEngine; names: string[] } | undefined;
  const union = () => {
    if (built !== undefined) return built;
    const tools = unionTools();
    const documents = tools.map((tool) => toSearchDocument(tool));
    built = {
      on: new SearchEngine(documents, { ...DEFAULT_RANKING, examples: false }),
      off: new SearchEngine(documents, { ...DEFAULT_RANKING, encode: false, examples: false }),
      names: tools.map((tool) => tool.originalName),
    };
    return built;
  };
  const place = (engine: SearchEngine, names: string[], query: string, wanted: RegExp) =>
    engine.search(query, 5).findIndex((hit) => wanted.test(names[hit.index] ?? ''));

  it('lifts the tool a doubtful request needs but does not name', () => {
    const { on, off, names } = union();
    const clock = 'how many hours ahead is Tokyo compared to Berlin';
    const scans = on.encoderScans;
    expect(on.answer(clock, 5).encoded).toBe(true);
    // One scan of the catalog for the doubtful answer, none for a confident one (a caller charges it).
    expect(on.encoderScans).toBe(scans + 1);
    on.answer('merge pdf files', 5);
    expect(on.encoderScans).toBe(scans + 1);
    // Into the first five; lexically it is not there.
    expect(place(on, names, clock, /convert_time/)).toBeGreaterThanOrEqual(0);
    expect(place(off, names, clock, /convert_time/)).toBe(-1);
    const word = 'I came across the word sonder online, what does that mean';
    expect(place(on, names, word, /definition/i)).toBeGreaterThanOrEqual(0);
    expect(place(off, names, word, /definition/i)).toBe(-1);
  }, 60_000);

  it('keeps doubtful answers lexical while a shared engine encodes its tools in the background', async () => {
    const tools = unionTools();
    const engine = new SearchEngine(
      tools.map((tool) => toSearchDocument(tool)),
      { ...DEFAULT_RANKING, examples: false },
    );
    const clock = 'how many hours ahead is Tokyo compared to Berlin';
    engine.prepareEncoder();
    const early = engine.answer(clock, 5);
    expect(early.encoded).toBeUndefined();
    expect(early).toEqual(union().off.answer(clock, 5));
    let later = engine.answer(clock, 5);
    for (let turn = 0; turn < 200 && later.encoded !== true; turn += 1) {
      await new Promise((done) => setTimeout(done, 10));
      later = engine.answer(clock, 5);
    }
    expect(later.encoded).toBe(true);
    expect(later).toEqual(union().on.answer(clock, 5));
  }, 60_000);

  it('bounds what the worst doubtful request costs: one scan of the catalog, however long the request', () => {
    const { on } = union();
    // A doubtful request padded with words to 8 KiB (the most a query is read), at limit 50.
    let pasted = 'when it is 9 in the morning in Berlin, what hour is it in Tokyo? ';
    while (pasted.length < 8_192) pasted += 'umbrella sunscreen picnic grandmother birthday guitar lesson neighbour ';
    pasted = pasted.slice(0, 8_192);
    expect(on.answer(pasted, 50).encoded).toBe(true);
    const scans = on.encoderScans;
    const started = performance.now();
    for (let round = 0; round < 20; round += 1) on.answer(pasted, 50);
    // The encoder reads at most 64 of its words and scans the 6,685 tools once per answer.
    expect(on.encoderScans - scans).toBe(20);
    expect((performance.now() - started) / 20).toBeLessThan(50);
  }, 60_000);

  it('re-orders a confident answer within the lexical top ten, and only the tools it was trained for', () => {
    const { on, off, names } = union();
    for (const query of ['merge pdf files', 'github create pull request', 'send a slack message to a channel']) {
      const answer = on.answer(query, 5);
      const lexical = off.answer(query, 10);
      expect(answer.confidence, query).toBeGreaterThanOrEqual(ENCODER.gate);
      expect(answer.confidence, query).toBe(lexical.confidence);
      // Nothing from outside the lexical top ten, and no catalog scan.
      const top10 = new Set(lexical.hits.map((hit) => hit.index));
      expect(
        answer.hits.every((hit) => top10.has(hit.index)),
        query,
      ).toBe(true);
      if (answer.reordered) expect(answer.lexical, query).toEqual(lexical.hits.slice(0, 5));
      else expect(answer.hits, query).toEqual(lexical.hits.slice(0, 5));
    }
    // A sibling the lexical ranking put sixth or lower, lifted by the encoder (measured: lexical 7th).
    const games = 'board games similar to catan';
    expect(place(on, names, games, /recommend/i)).toBeGreaterThanOrEqual(0);
    expect(place(off, names, games, /recommend/i)).toBe(-1);
  }, 60_000);

  it('leaves a catalog it was not trained for exactly lexical when confident', () => {
    // The union's tools with their descriptions changed: none is a tool the encoder knows, and none
    // has example requests.
    const tools = unionTools();
    const documents = tools.map((tool) => {
      const document = toSearchDocument(tool);
      return { ...document, description: `${document.description} (internal build)` };
    });
    const on = new SearchEngine(documents);
    const off = new SearchEngine(documents, { ...DEFAULT_RANKING, encode: false });
    for (const query of ['merge pdf files', 'github create pull request', 'board games similar to catan']) {
      const answer = on.answer(query, 5);
      expect(answer.reordered, query).toBeUndefined();
      expect(answer.confidence, query).toBeGreaterThanOrEqual(ENCODER.gate);
      expect(answer, query).toEqual(off.answer(query, 5));
    }
  }, 60_000);
});
reportSharedDataSkip(it.skip);
