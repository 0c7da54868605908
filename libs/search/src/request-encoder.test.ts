import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { analyzeQuery } from './analyzer';
import { Bm25Index } from './bm25-index';
import { DEFAULT_RANKING } from './ranking-options';
import { mergeRankings } from './encoder-merge';
import { ENCODER, encodeTerms, loadRequestEncoder } from './request-encoder';
import { ToolEncodings } from './tool-encodings';
import { toSearchDocument } from './search-document';
import { SearchEngine } from './search-engine';
import type { SearchHit } from './search-types';

const documents = buildSessionTools(
  [
    toolset('clock', [tool('convert_time', 'Convert a time from one time zone to another.')]),
    toolset('weather', [tool('get_forecast', 'Weather forecast for a city: temperature, rain and wind.')]),
    toolset('github', [tool('create_issue', 'Open a new issue in a GitHub repository.')]),
    toolset('pdf', [tool('merge_pdfs', 'Merge several PDF files into one document.')]),
    toolset('dictionary', [tool('get_definitions', 'Look up the definitions of an English word.')]),
  ],
  defaultToolSearchConfig(),
).deferred.map((t) => toSearchDocument(t));
const nameOf = (index: number) => documents[index]?.name ?? '';

describe('request encoder', () => {
  it('parses its generated table: sorted words, each with its own bytes', () => {
    const table = loadRequestEncoder();
    expect(table.dimensions).toBe(48);
    expect(table.words.length).toBeGreaterThan(5_000);
    for (let at = 1; at < table.words.length; at += 97)
      expect((table.words[at - 1] as string) < (table.words[at] as string)).toBe(true);
    const vector = new Float32Array(table.dimensions);
    // A word encodes to its own direction, at unit length.
    expect(encodeTerms([{ term: table.words[10] as string, weight: 1 }], vector)).toBe(true);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
  });

  it('encodes nothing from words it has no vector for, or at weight 0', () => {
    const vector = new Float32Array(loadRequestEncoder().dimensions);
    expect(encodeTerms([{ term: 'qzxvwkpl', weight: 1 }], vector)).toBe(false);
    expect(encodeTerms([{ term: 'weather', weight: 0 }], vector)).toBe(false);
    expect([...vector].every((value) => value === 0)).toBe(true);
  });

  it('puts a request near the tool that serves it without a shared word', () => {
    const encodings = new ToolEncodings(new Bm25Index(documents));
    const nearest = (request: string, count = 1) => encodings.nearest(analyzeQuery(request), count);
    // No word of these requests is in the tool texts here.
    expect(nameOf(nearest('will I need an umbrella in Lisbon tomorrow')[0]?.index ?? -1)).toBe('weather__get_forecast');
    expect(nameOf(nearest('combine these two reports into a single file')[0]?.index ?? -1)).toBe('pdf__merge_pdfs');
    expect(nameOf(nearest('what does serendipity mean')[0]?.index ?? -1)).toBe('dictionary__get_definitions');
    const three = nearest('will I need an umbrella in Lisbon tomorrow', 3);
    expect(three).toHaveLength(3);
    for (let at = 1; at < three.length; at += 1)
      expect(three[at - 1]?.similarity ?? 0).toBeGreaterThanOrEqual(three[at]?.similarity ?? 0);
    expect(encodings.similarity(['umbrella', 'lisbon', 'tomorrow'], three[0]?.index ?? -1)).toBe(three[0]?.similarity);
    expect(nearest('qzxv wkpl', 3)).toEqual([]);
  });

  it("builds the tools' vectors in slices when asked, answering nothing until they are all built", async () => {
    const encodings = new ToolEncodings(new Bm25Index(documents));
    const request = analyzeQuery('will I need an umbrella in Lisbon tomorrow');
    encodings.buildInBackground(2);
    expect(encodings.ready).toBe(false);
    expect(encodings.nearest(request, 1)).toEqual([]);
    for (let turn = 0; turn < 20 && !encodings.ready; turn += 1) await new Promise((done) => setTimeout(done, 5));
    expect(encodings.ready).toBe(true);
    expect(nameOf(encodings.nearest(request, 1)[0]?.index ?? -1)).toBe('weather__get_forecast');
    // Built in slices or at once, the vectors are the same.
    const direct = new ToolEncodings(new Bm25Index(documents));
    expect(direct.nearest(request, 5)).toEqual(encodings.nearest(request, 5));
  });

  it('builds the background queue of every catalog one slice per turn, the catalogs taking turns', async () => {
    const catalogs = Array.from({ length: 3 }, () => new ToolEncodings(new Bm25Index(documents)));
    for (const encodings of catalogs) encodings.buildInBackground(2);
    // One turn of the event loop: one slice of the first catalog, none of the others'.
    await new Promise((done) => setTimeout(done, 0));
    expect(catalogs.map((encodings) => encodings.bytes > 0)).toEqual([true, false, false]);
    // The catalogs take turns: the next two turns start the other two.
    await new Promise((done) => setTimeout(done, 0));
    await new Promise((done) => setTimeout(done, 0));
    expect(catalogs.map((encodings) => encodings.bytes > 0)).toEqual([true, true, true]);
    for (let turn = 0; turn < 60 && !catalogs.every((encodings) => encodings.ready); turn += 1)
      await new Promise((done) => setTimeout(done, 0));
    expect(catalogs.every((encodings) => encodings.ready)).toBe(true);
    // Catalogs that one slice builds whole: still one catalog per turn.
    const small = Array.from({ length: 3 }, () => new ToolEncodings(new Bm25Index(documents)));
    for (const encodings of small) encodings.buildInBackground(documents.length);
    await new Promise((done) => setTimeout(done, 0));
    expect(small.map((encodings) => encodings.ready)).toEqual([true, false, false]);
  });

  it('merges by reciprocal rank, keeping scores in the merged order and marking what only it found', () => {
    const hit = (index: number, score: number): SearchHit => ({ index, name: `t${index}`, score, reason: 'bm25' });
    const lexical = [hit(0, 30), hit(1, 20), hit(2, 10)];
    const merged = mergeRankings(
      lexical,
      [
        { index: 2, similarity: 0.9 },
        { index: 3, similarity: 0.8 },
      ],
      (i) => `t${i}`,
      3,
    );
    const k = ENCODER.rankConstant;
    // t2: 1/(k+2) + 1/k; t0: 1/k; t1 and t3 tie at 1/(k+1): the lower position first; cut at 3.
    expect(merged.map((h) => h.index)).toEqual([2, 0, 1]);
    expect(merged[0]?.score).toBeCloseTo(30, 9);
    expect(merged[1]?.score).toBeCloseTo((30 * (1 / k)) / (1 / (k + 2) + 1 / k), 9);
    const longer = mergeRankings(lexical, [{ index: 3, similarity: 0.8 }], (i) => `t${i}`, 10);
    expect(longer.find((h) => h.index === 3)).toMatchObject({ name: 't3', reason: 'encoder' });
    expect(longer.filter((h) => h.reason === 'bm25')).toHaveLength(3);
    for (let at = 1; at < longer.length; at += 1)
      expect(longer[at - 1]?.score ?? 0).toBeGreaterThanOrEqual(longer[at]?.score ?? 0);
  });

  it("keeps a long answer's lexical tail, ignores tools no nearer than orthogonal, and breaks ties lexically", () => {
    const hit = (index: number): SearchHit => ({ index, name: `t${index}`, score: 100 - index, reason: 'bm25' });
    const lexical = Array.from({ length: 20 }, (_, at) => hit(at + 10));
    const merged = mergeRankings(
      lexical,
      [
        { index: 0, similarity: 0.5 },
        { index: 1, similarity: -0.2 },
      ],
      (i) => `t${i}`,
      20,
    );
    expect(merged).toHaveLength(20);
    // The encoder's first tool ties with the lexical first at 1/k: the lexical one keeps first place.
    expect(merged[0]?.index).toBe(10);
    expect(merged[1]).toMatchObject({ index: 0, reason: 'encoder' });
    expect(merged.some((h) => h.index === 1)).toBe(false);
    // Lexical places 11 to 19 are still there (the 20th gave way to the encoder's tool).
    expect(merged.filter((h) => h.reason === 'bm25').map((h) => h.index)).toEqual(
      lexical.slice(0, 19).map((h) => h.index),
    );
  });

  it('leaves small catalogs, exact names and confident answers to the lexical ranking', () => {
    const small = new SearchEngine(documents);
    expect(small.answer('what hour is it in tokyo when it is noon in berlin', 5).encoded).toBeUndefined();
    const many = buildSessionTools(
      Array.from({ length: 12 }, (_, s) =>
        toolset(
          `service${s}`,
          Array.from({ length: 10 }, (_, i) => tool(`records_${s}_${i}`, `Manage records ${i} of service ${s}.`)),
        ),
      ),
      defaultToolSearchConfig(),
    ).deferred.map((t) => toSearchDocument(t));
    const on = new SearchEngine([...documents, ...many]);
    const off = new SearchEngine([...documents, ...many], { ...DEFAULT_RANKING, encode: false });
    const exact = on.answer(documents[0]?.name ?? '', 5);
    expect(exact.hits[0]?.reason).toBe('exact');
    expect(exact.encoded).toBeUndefined();
    const confident = on.answer('merge pdf files into one document', 5);
    expect(confident.confidence).toBeGreaterThanOrEqual(ENCODER.gate);
    expect(confident).toEqual(off.answer('merge pdf files into one document', 5));
    expect(on.answer('qzxv wkpl jjfr', 5).hits).toEqual([]);
  });
});
