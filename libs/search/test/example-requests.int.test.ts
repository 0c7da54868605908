import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasSharedData, reportSharedDataSkip } from '@toolsearch/testing';
import { unionTools } from './engine-fixture';
import {
  analyzeQuery,
  DEFAULT_RANKING,
  EXAMPLES,
  parseQueryFile,
  SearchEngine,
  toSearchDocument,
  type EvalQuery,
  type SearchHit,
} from '../src/index';

const here = dirname(fileURLToPath(import.meta.url));

// The example requests on the 6,685-tool union: votes lift the tools people ask for in other words,
// never a tool without examples, and a doubtful answer no example supports is withheld. The
// requests below were written for this test.
/** Withheld by the lexical confidence, given back by an example written for the tool it finds. */
const RESCUED = '東京が朝9時のとき、ロンドンは何時？';
const RESCUED_TOOL = 'convert_time';
/** An example scores past the gate's first score but says little of the request. */
const SHARE_WITHHELD =
  'My uncle emailed pictures of his vintage train set, could you glue the broken caboose back together before the weekend?';

describe('the example gate and the rescue', () => {
  it('give back only answers the gate would not withhold again', () => {
    // A rescued answer is never withheld by the gate: the rescue's score is above both of the gate's.
    expect(EXAMPLES.rescue.score).toBeGreaterThanOrEqual(Math.max(EXAMPLES.abstain.score, EXAMPLES.abstain.wide));
  });
});

describe.skipIf(!hasSharedData())('example requests on the 6,685-tool union', () => {
  let built: { on: SearchEngine; off: SearchEngine; names: string[] } | undefined;
  const union = () => {
    if (built !== undefined) return built;
    const tools = unionTools();
    const documents = tools.map((tool) => toSearchDocument(tool));
    built = {
      on: new SearchEngine(documents),
      off: new SearchEngine(documents, { ...DEFAULT_RANKING, examples: false }),
      names: tools.map((tool) => tool.originalName),
    };
    return built;
  };
  const names = (engine: SearchEngine, query: string) =>
    engine.search(query, 5).map((hit) => union().names[hit.index] ?? '');

  it('lifts gold tools of the hand-written requests into the first five, and pushes none out', () => {
    const { on, off } = union();
    const ids = unionTools().map((tool) => `${tool.label}::${tool.originalName}`);
    const parsed = parseQueryFile(readFileSync(resolve(here, '../eval/answerable-queries.jsonl'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    const hit = (engine: SearchEngine, query: EvalQuery) => {
      const got = new Set(engine.search(query.query, 5).map((found) => ids[found.index]));
      return query.gold.some((group) => group.some((id) => got.has(id)));
    };
    const lifted = parsed.queries.filter((query) => hit(on, query) && !hit(off, query));
    const pushedOut = parsed.queries.filter((query) => !hit(on, query) && hit(off, query));
    // Measured: 4 of 60 lifted, none pushed out (twenty-fourth session).
    expect(lifted.length).toBeGreaterThanOrEqual(3);
    expect(pushedOut.map((query) => query.query)).toEqual([]);
    for (const query of lifted) expect(on.answer(query.query, 5).voted, query.query).toBe(true);
  }, 60_000);

  it('votes only for tools that have examples, each tool once per place', () => {
    const { on } = union();
    const examples = on.learned?.examples;
    expect(examples).toBeDefined();
    const votes = examples?.votes(analyzeQuery('count the syllables in a line of my poem')) ?? [];
    expect(votes.length).toBeGreaterThan(0);
    expect(votes.every((vote) => examples?.has(vote.index))).toBe(true);
    expect(new Set(votes.map((vote) => vote.place)).size).toBeLessThanOrEqual(EXAMPLES.tools);
    // Best first.
    const scores = votes.map((vote) => vote.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // Each vote's share of the request is its score over one reach, so it falls with the score.
    for (const vote of votes) expect(vote.share).toBeGreaterThan(0);
    expect(votes[0]?.share).toBeLessThanOrEqual(1);
    const reach = (votes[0]?.score ?? 1) / (votes[0]?.share ?? 1);
    for (const vote of votes) expect(vote.share).toBeCloseTo(vote.score / reach, 9);
    // The same reach without reading a posting: a bound no example's score passes.
    const terms = analyzeQuery('count the syllables in a line of my poem');
    expect(examples?.reach(terms)).toBeCloseTo(reach, 9);
    for (const vote of votes) expect(vote.score).toBeLessThanOrEqual(examples?.reach(terms) ?? 0);
    // The same request buried in words no example has keeps its score, and words examples have
    // but the best one lacks lower its share.
    const buried = examples?.votes(
      analyzeQuery('count the syllables in a line of my poem while the weather forecast and the stock prices update'),
    )[0];
    expect(buried?.share).toBeLessThan(votes[0]?.share ?? 0);
  }, 60_000);

  it('never votes for a tool whose text differs from the one the examples were written for', () => {
    // The union with every description changed (as a tenant's own tools would be): no examples.
    const tools = unionTools();
    const changed = tools.map((tool) => {
      const document = toSearchDocument(tool);
      return { ...document, description: `${document.description} (fork)` };
    });
    const engine = new SearchEngine(changed);
    expect(engine.learned?.examples).toBeUndefined();
    const answer = engine.answer("what time is it in Sydney when it's noon in London", 5);
    expect(answer.voted).toBeUndefined();
    expect(answer.exampleScore).toBeUndefined();
  }, 60_000);

  it("keeps a tenant's own tools in their places beside the union's", () => {
    const tools = unionTools();
    const own = [
      {
        name: 'acme__convert_time_zone',
        description: 'Converts a time of day from one city time zone to another for Acme staff.',
      },
      {
        name: 'acme__count_poem_syllables',
        description: 'Counts the syllables in each line of a poem for the Acme writing desk.',
      },
    ].map((tool) => ({
      name: tool.name,
      originalName: tool.name.slice(6),
      label: 'acme',
      description: tool.description,
      parameters: [],
      parameterDocs: '',
      tags: [],
      sourceDescription: '',
    }));
    const documents = [...tools.map((tool) => toSearchDocument(tool)), ...own];
    const on = new SearchEngine(documents);
    const off = new SearchEngine(documents, { ...DEFAULT_RANKING, examples: false });
    const first = documents.length - own.length;
    for (const query of ['convert time zone for a city', 'count poem syllables in each line']) {
      const lexical = off.search(query, 10).map((hit) => hit.index);
      const voted = on.search(query, 10).map((hit) => hit.index);
      for (let at = 0; at < own.length; at += 1) {
        const place = lexical.indexOf(first + at);
        if (place >= 0) expect(voted.indexOf(first + at), query).toBe(place);
      }
      expect(
        lexical.some((index) => index >= first),
        query,
      ).toBe(true);
    }
  }, 60_000);

  it('withholds a doubtful answer that no example supports, and keeps one that an example does', () => {
    const { on, off } = union();
    for (const chore of ['get my car washed this afternoon', 'change the battery in my wall clock']) {
      const answer = on.answer(chore, 5);
      expect(answer.hits, chore).toEqual([]);
      expect(answer.nearest.length, chore).toBeGreaterThan(0);
      expect(answer.exampleScore, chore).toBeLessThan(EXAMPLES.abstain.score);
      expect(answer.confidence, chore).toBeLessThan(EXAMPLES.abstain.below);
      // Without the examples the same request gets its lookalikes.
      expect(off.answer(chore, 5).hits.length, chore).toBeGreaterThan(0);
    }
    // An example scores past `score` but says little of the request: withheld by the share clause.
    const carved = on.answer(SHARE_WITHHELD, 5);
    expect(carved.hits).toEqual([]);
    expect(carved.exampleScore).toBeGreaterThanOrEqual(EXAMPLES.abstain.score);
    expect(carved.exampleScore).toBeLessThan(EXAMPLES.abstain.wide);
    expect(carved.exampleShare).toBeLessThan(EXAMPLES.abstain.share);
    const poem = 'how many syllables are in this line of my poem';
    const kept = on.answer(poem, 5);
    expect(kept.confidence).toBeLessThan(EXAMPLES.abstain.below);
    expect(names(on, poem)).toContain('count_syllables');
  }, 60_000);

  it('withholds a doubtful answer only while enough of its judged tools have examples', () => {
    // A judged tool without examples (a tenant's own version: its text differs) may be the one
    // asked for; the gate tolerates 5 - `known` of them and gives the answer when there are more.
    const { on, names } = union();
    const chore = 'get my car washed this afternoon';
    const ten = on.answer(chore, 10).nearest.map((hit) => hit.index);
    expect(ten.length).toBe(10);
    const ranked = (indexes: number[]): SearchHit[] =>
      indexes.map((index, place) => ({ index, name: names[index] ?? '', score: 10 - place, reason: 'bm25' }));
    const tolerated = 5 - EXAMPLES.abstain.known;
    for (const forks of [0, tolerated, tolerated + 1]) {
      const forked = new Set(ten.slice(0, forks));
      // Without the encoder, so that the judged tools are the ranking's (tools without examples keep their places).
      const learned = new SearchEngine(
        on.index.documents.map((document, index) =>
          forked.has(index) ? { ...document, description: `${document.description} (fork)` } : document,
        ),
        { ...DEFAULT_RANKING, encode: false },
      ).learned;
      const hits = ranked(ten);
      const answer = learned?.answer(chore, hits, hits.slice(0, 5), 5, 0.3);
      if (forks <= tolerated) {
        expect(answer?.hits, `${forks} forked`).toEqual([]);
        expect(answer?.exampleScore, `${forks} forked`).toBeLessThan(EXAMPLES.abstain.score);
      } else {
        expect(answer?.hits.length, `${forks} forked`).toBe(5);
        expect(answer?.exampleScore, `${forks} forked`).toBeUndefined();
      }
    }
  }, 60_000);

  it("stays out of an answer one of whose judged tools comes from a tenant's own source", () => {
    // The same chore the union alone withholds; a tenant's own detailing tool (a source no example
    // was written for) ranks among the judged five, and the examples cannot speak for it.
    const { on } = union();
    const chore = 'get my car washed this afternoon';
    expect(on.answer(chore, 5).hits).toEqual([]);
    const own = {
      name: 'acme__schedule_detailing',
      originalName: 'schedule_detailing',
      label: 'acme',
      description:
        'Schedule a vehicle detailing appointment at an Acme location: exterior wash, interior cleaning, waxing.',
      parameters: [],
      parameterDocs: '',
      tags: [],
      sourceDescription: '',
    };
    const ownIndex = on.index.documents.length;
    // Labelled like a public server whose tools have examples: labels need not be unique in a
    // tenant's catalog, its toolset id is.
    const publicLabel = on.index.documents.find((_, index) => on.learned?.examples?.has(index))?.label ?? '';
    for (const tenantTool of [own, { ...own, label: publicLabel, source: 'mcp-acme-detailing' }]) {
      const engine = new SearchEngine([...on.index.documents, tenantTool]);
      const answer = engine.answer(chore, 5);
      expect(answer.confidence).toBeLessThan(EXAMPLES.abstain.below);
      expect(answer.hits.map((hit) => hit.index)).toContain(ownIndex);
      expect(answer.exampleScore).toBeUndefined();
      expect(engine.learned?.examples?.knowsSource(ownIndex)).toBe(false);
    }
  }, 60_000);

  it('gives a doubtful answer after all when an example written for one of its tools matches it closely', () => {
    const { on, off } = union();
    const answer = on.answer(RESCUED, 5);
    expect(answer.rescued).toBe(true);
    expect(answer.exampleScore).toBeGreaterThanOrEqual(EXAMPLES.rescue.score);
    // The example that vouches is one written for a tool of the answer, the one the request asks for.
    const examples = on.learned?.examples;
    const vouching = (examples?.votes(analyzeQuery(RESCUED)) ?? []).filter(
      (vote) => vote.score >= EXAMPLES.rescue.score && vote.share >= EXAMPLES.rescue.share,
    );
    const given = answer.hits.map((hit) => hit.index);
    expect(vouching.some((vote) => given.includes(vote.index))).toBe(true);
    expect(vouching.map((vote) => union().names[vote.index])).toContain(RESCUED_TOOL);
    // The lexical confidence alone withholds it.
    expect(off.answer(RESCUED, 5).hits).toEqual([]);
    // Given back, it is the answer of an engine that never abstains; that engine gives nothing back.
    const never = new SearchEngine(on.index.documents, { ...DEFAULT_RANKING, abstain: false });
    const open = never.answer(RESCUED, 5);
    expect(given).toEqual(open.hits.map((hit) => hit.index));
    expect(open.rescued).toBeUndefined();
    // A chore no tool serves is not given back.
    expect(on.answer('get my car washed this afternoon', 5).rescued).toBeUndefined();
  }, 60_000);

  it('gives back only an answer one of whose first five tools the close example was written for', () => {
    const { names } = union();
    // Only the asked-for tool keeps the text its examples were written for: the others are a
    // tenant's own versions, which no example speaks for and no vote can move.
    const documents = union().on.index.documents.map((document, index) =>
      names[index] === RESCUED_TOOL ? document : { ...document, description: `${document.description} (fork)` },
    );
    // Without the encoder, which would merge its nearest tools (the asked-for one) into the answer.
    const learned = new SearchEngine(documents, { ...DEFAULT_RANKING, encode: false }).learned;
    const hit = (index: number, place: number): SearchHit => ({
      index,
      name: names[index] ?? '',
      score: 10 - place,
      reason: 'bm25',
    });
    const others = names
      .flatMap((name, index) => (name === RESCUED_TOOL ? [] : [index]))
      .slice(0, 10)
      .map(hit);
    expect(learned?.rescued(RESCUED, others, others.slice(0, 5), 5, 0.01)).toBeUndefined();
    // The copy of the asked-for tool whose example vouches (copies under other servers may differ).
    const vouching = learned?.examples
      ?.votes(analyzeQuery(RESCUED))
      .find((vote) => vote.score >= EXAMPLES.rescue.score && vote.share >= EXAMPLES.rescue.share);
    expect(names[vouching?.index ?? -1]).toBe(RESCUED_TOOL);
    const tool = vouching?.index ?? -1;
    const withTool = [hit(tool, 0), ...others.slice(0, 9)];
    expect(learned?.rescued(RESCUED, withTool, withTool.slice(0, 5), 5, 0.01)?.rescued).toBe(true);
  }, 60_000);

  it('decides alike at limits 1 to 5, lists each tool once at 20, and keeps its cost bounded on a pasted 8 KiB request', () => {
    const { on } = union();
    for (const query of [
      'get my car washed this afternoon',
      "what time is it in Sydney when it's noon in London",
      RESCUED,
      SHARE_WITHHELD,
    ]) {
      const five = on.answer(query, 5);
      for (const limit of [1, 2, 3, 4]) {
        const answer = on.answer(query, limit);
        expect(answer.hits.length === 0, `${query} at ${limit}`).toBe(five.hits.length === 0);
        expect(answer.hits.map((hit) => hit.index)).toEqual(five.hits.slice(0, limit).map((hit) => hit.index));
        expect(answer.rescued, `${query} at ${limit}`).toBe(five.rescued);
        expect(answer.exampleScore, `${query} at ${limit}`).toBe(five.exampleScore);
      }
    }
    // Past the first ten the ranking follows without the votes: each tool once, scores falling.
    for (const query of ["what time is it in Sydney when it's noon in London", 'count poem syllables in each line']) {
      const twenty = on.search(query, 20);
      expect(new Set(twenty.map((hit) => hit.index)).size, query).toBe(twenty.length);
      const scores = twenty.map((hit) => hit.score);
      expect(
        [...scores].sort((a, b) => b - a),
        query,
      ).toEqual(scores);
    }
    let pasted = 'what time is it in Sydney when it is noon in London? ';
    while (pasted.length < 8_192) pasted += 'itinerary layover passport luggage boarding terminal gate delay ';
    const examples = on.learned?.examples;
    const started = performance.now();
    for (let round = 0; round < 20; round += 1) examples?.votes(analyzeQuery(pasted.slice(0, 8_192)));
    // At most `EXAMPLES.maxTerms` distinct terms are looked up, each one binary search and its postings.
    expect((performance.now() - started) / 20).toBeLessThan(20);
    // Whole answers stay bounded the same way: this one given, and a pasted request the lexical
    // confidence withholds and the examples give back (votes, the encoder's merge, the fusion).
    let repeated = '';
    while (repeated.length < 8_192) repeated += `${RESCUED} `;
    repeated = repeated.slice(0, 8_192);
    expect(on.answer(repeated, 5).rescued).toBe(true);
    const whole = performance.now();
    for (let round = 0; round < 20; round += 1) {
      on.answer(pasted.slice(0, 8_192), 5);
      on.answer(repeated, 5);
    }
    expect((performance.now() - whole) / 40).toBeLessThan(20);
  }, 60_000);
});
reportSharedDataSkip(it.skip);
