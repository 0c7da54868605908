import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { hasSharedData, loadSharedCatalog, reportSharedDataSkip } from '@toolsearch/testing';
import {
  CONFIDENCE_MODEL,
  DEFAULT_RANKING,
  parseQueryFile,
  SearchEngine,
  splitQueries,
  toSearchDocument,
} from '../src/index';
import type { EvalQuery } from '../src/index';

const here = dirname(fileURLToPath(import.meta.url));

function ownQueries(file: string): EvalQuery[] {
  const parsed = parseQueryFile(readFileSync(resolve(here, '../eval', file), 'utf8'));
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.queries;
}

function unionEngines() {
  const tools = buildSessionTools(
    loadSharedCatalog('github', 'livemcpbench', 'toucan'),
    defaultToolSearchConfig(),
  ).deferred;
  const documents = tools.map((tool) => toSearchDocument(tool));
  return {
    tools,
    ids: tools.map((tool) => `${tool.label}::${tool.originalName}`),
    engine: new SearchEngine(documents),
    lexical: new SearchEngine(documents, { ...DEFAULT_RANKING, encode: false, examples: false }),
    open: new SearchEngine(documents, { ...DEFAULT_RANKING, abstain: false, encode: false, examples: false }),
  };
}

const emptied = (engine: SearchEngine, queries: readonly EvalQuery[]) =>
  queries.filter((q) => engine.search(q.query, 5).length === 0).length;

// Floors sit a little under the values measured on 2026-12-04 (BENCHMARKS.md, issue 21, eighth
// session). The tuning parts of both files shaped the confidence model; the frozen fifth did not.
describe.skipIf(!hasSharedData())('abstention on the 6,685-tool union', () => {
  // Built once, by the first test that runs (never when the data is absent).
  let built: ReturnType<typeof unionEngines> | undefined;
  const union = () => (built ??= unionEngines());

  it('answers about half of the no-capability requests with nothing', () => {
    const { engine } = union();
    const queries = ownQueries('abstention-queries.jsonl');
    // Measured: 33 of 60 (tuning 26 of 48, frozen test 7 of 12) with the context check; 28 of 60
    // without it (tenth session); main had 5 of 60 before issue 21.
    expect(emptied(engine, queries)).toBeGreaterThanOrEqual(31);
    expect(emptied(engine, splitQueries(queries).test)).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it('withholds a doubtful lookalike off the request subject, and keeps a doubtful answer on it', () => {
    const { engine } = union();
    // "espresso" and "cup" find an espresso machine's status tools and a unit converter, none of
    // which brews anything: withheld by the context check, not by the threshold.
    const lookalike = engine.answer('brew me a cup of espresso right now', 5);
    expect(lookalike.hits).toEqual([]);
    expect(lookalike.confidence).toBeGreaterThanOrEqual(CONFIDENCE_MODEL.abstainBelow);
    expect(lookalike.contextSupport).toBeLessThan(CONFIDENCE_MODEL.context?.support ?? 0);
    // As doubtful by the confidence, but "flowchart", "sorting", "algorithm" fit a Mermaid tool.
    const served = engine.answer('Draw a flowchart of a fast sorting algorithm using Mermaid.', 5);
    expect(served.confidence).toBeLessThan(CONFIDENCE_MODEL.context?.below ?? 0);
    expect(served.contextSupport).toBeGreaterThanOrEqual(CONFIDENCE_MODEL.context?.support ?? 1);
    expect(served.hits.some((hit) => /mermaid/i.test(hit.name))).toBe(true);
  }, 60_000);

  it('judges an answer the same at limits 1 to 5: the smaller answers are its prefixes', () => {
    const { engine } = union();
    const queries = [...ownQueries('abstention-queries.jsonl'), ...ownQueries('answerable-queries.jsonl')];
    for (const { query } of queries) {
      const five = engine.answer(query, 5);
      for (const limit of [1, 2, 3, 4]) {
        const answer = engine.answer(query, limit);
        expect(
          answer.hits.map((hit) => hit.index),
          `${query} at ${limit}`,
        ).toEqual(five.hits.slice(0, limit).map((hit) => hit.index));
        expect(answer.confidence).toBe(five.confidence);
      }
    }
  }, 60_000);

  it('ranks and judges an answer alike at limits 5 and 10: the first five at 10 are the answer at 5', () => {
    const { engine } = union();
    const queries = [...ownQueries('abstention-queries.jsonl'), ...ownQueries('answerable-queries.jsonl')];
    const firstFive = (answer: ReturnType<SearchEngine['answer']>) =>
      (answer.hits.length > 0 ? answer.hits : answer.nearest).slice(0, 5).map((hit) => hit.index);
    for (const { query } of queries) {
      const five = engine.answer(query, 5);
      const ten = engine.answer(query, 10);
      expect(firstFive(ten), query).toEqual(firstFive(five));
      expect(ten.hits.length === 0, query).toBe(five.hits.length === 0);
      expect(ten.confidence, query).toBe(five.confidence);
    }
  }, 60_000);

  it('still returns nothing for nonsense', () => {
    const { engine } = union();
    for (const query of ['qzxv wkpl jjfr', 'blorptang quuxifex', 'zzzz yyyy xxxx wwww', '蛇蝎胡萝卜月亮鞋带'])
      expect(engine.search(query, 5), query).toEqual([]);
  }, 60_000);

  it('withholds no hit of the hand-written answerable requests', () => {
    const { engine, lexical, open, ids } = union();
    const hits = (searcher: SearchEngine, file: string) =>
      ownQueries(file).filter((q) => {
        const gold = new Set(q.gold.flat());
        return searcher.search(q.query, 5).some((hit) => gold.has(ids[hit.index] ?? ''));
      }).length;
    // The threshold was fitted on lexical answers: it withholds none of their hits.
    expect(hits(lexical, 'answerable-queries.jsonl')).toBe(hits(open, 'answerable-queries.jsonl'));
    // The learned parts (the request encoder merged into doubtful answers and re-ordering confident
    // ones, the example requests' votes) gain more hits than they lose over the hand-written
    // requests that are tuning material. (Measured: 333 of 380 with the encoder, 313 without.)
    const files = ['answerable-queries.jsonl', ...['', '2', '3', '4'].map((n) => `fresh${n}-answerable-queries.jsonl`)];
    const total = (searcher: SearchEngine) => files.reduce((sum, file) => sum + hits(searcher, file), 0);
    expect(total(engine)).toBeGreaterThan(total(lexical) + 5);
  }, 60_000);

  it('does not empty keyword requests made of tool names', () => {
    const { engine, tools } = union();
    // Every 10th tool's name as a user would type it: "get_weather_by_city" → "get weather by city".
    const queries = tools
      .filter((_, at) => at % 10 === 0)
      .map((tool) =>
        tool.originalName
          .replace(/([a-z])([A-Z])/g, '$1 $2')
          .replace(/[_\-.]+/g, ' ')
          .trim(),
      )
      .filter((query) => query.length > 0);
    const empty = queries.filter((query) => engine.search(query, 5).length === 0);
    expect(empty.length / queries.length, empty.slice(0, 10).join(' | ')).toBeLessThanOrEqual(0.02);
  }, 60_000);

  it('keeps the cost of a pasted 8 KiB request bounded', () => {
    const { engine } = union();
    const pasted = 'please summarise this log line with error codes and timestamps '.repeat(130);
    const started = performance.now();
    for (let round = 0; round < 20; round += 1) engine.answer(pasted, 50);
    expect((performance.now() - started) / 20).toBeLessThan(50);
  }, 60_000);
});
reportSharedDataSkip(it.skip);
