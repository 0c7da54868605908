import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasSharedData, reportSharedDataSkip } from '@toolsearch/testing';
import { unionTools } from './engine-fixture';
import { DEFAULT_RANKING, EXAMPLES, parseQueryFile, SearchEngine, toSearchDocument } from '../src/index';
import { isKnownTool, isThinPublicTool } from '../src/known-tools';

const here = dirname(fileURLToPath(import.meta.url));

// "Nothing fits" on the 6,685-tool union: a request that reads like one of the requests no union
// tool serves (training/no-capability-requests.jsonl) more than like any example of the tools found
// is withheld, confident or not. The request below was written for this test.
const ERRAND = 'rerun the failed Circle CI workflow';

/** A tenant's own tool (a source no public catalog has), as a session's catalog holds it. */
const tenantTool = (label: string, originalName: string, description: string) => ({
  name: `${label}__${originalName}`,
  originalName,
  label,
  source: `${label}-tools`,
  description,
  parameters: [],
  parameterDocs: '',
  tags: [],
  sourceDescription: '',
});

describe.skipIf(!hasSharedData())('nothing fits, on the 6,685-tool union', () => {
  let built: { documents: ReturnType<typeof toSearchDocument>[]; engine: SearchEngine } | undefined;
  const union = () => {
    if (built !== undefined) return built;
    const documents = unionTools().map((tool) => toSearchDocument(tool));
    built = { documents, engine: new SearchEngine(documents) };
    return built;
  };
  /** The answer to `request` with a tenant's own tool added to the union, and where that tool stands. */
  const withOwnTool = (own: ReturnType<typeof tenantTool>, request: string, limit: number) => {
    const { documents } = union();
    const answer = new SearchEngine([...documents, own]).answer(request, limit);
    const place = [...answer.hits, ...answer.nearest].findIndex((hit) => hit.index === documents.length);
    return { answer, place };
  };
  /** Each request is answered, and not withheld by this rule. */
  const expectGiven = (queries: readonly string[]) => {
    const { engine } = union();
    for (const query of queries) {
      const answer = engine.answer(query, 5);
      expect(answer.nothingScore, query).toBeUndefined();
      expect(answer.hits.length, query).toBeGreaterThan(0);
    }
  };

  it('withholds a confident answer to something no tool does, keeping the lookalikes as the nearest', () => {
    const { documents, engine } = union();
    const answer = engine.answer(ERRAND, 5);
    expect(answer.confidence).toBeGreaterThanOrEqual(EXAMPLES.abstain.below);
    expect(answer.hits).toEqual([]);
    expect(answer.nearest.length).toBeGreaterThan(0);
    expect(answer.nothingScore).toBeGreaterThanOrEqual(EXAMPLES.nothing.score);
    // With abstention off the same request gets its lookalikes.
    const open = new SearchEngine(documents, { ...DEFAULT_RANKING, abstain: false });
    expect(open.answer(ERRAND, 5).hits.length).toBeGreaterThan(0);
    expect(open.answer(ERRAND, 5).nothingScore).toBeUndefined();
  }, 60_000);

  it("stays out when a tenant's own tool that does it is among the judged tools", () => {
    const own = tenantTool(
      'ci',
      'rerun_workflow',
      'Re-run a failed CircleCI workflow of a project branch, from the start or from the failed jobs.',
    );
    const { answer, place } = withOwnTool(own, ERRAND, 5);
    expect(place).toBeGreaterThanOrEqual(0);
    expect(place).toBeLessThan(answer.hits.length);
    expect(answer.nothingScore).toBeUndefined();
  }, 60_000);

  it('is not kept out by a bare catalog tool that came into the first ten on one word of the request', () => {
    // Written for this test. Among its nearest ten is a union tool with no examples (patchright's
    // "close", no description, brought in by the request encoder) that matches no word of it;
    // before, any such tool kept the rule out.
    const { engine } = union();
    const request = 'sign my kid up for swimming lessons at the community pool';
    const answer = engine.answer(request, 10);
    expect(answer.hits).toEqual([]);
    expect(answer.nothingScore).toBeGreaterThanOrEqual(EXAMPLES.nothing.score);
    const examples = engine.learned?.examples;
    expect(answer.nearest.some((hit) => examples?.has(hit.index) === false)).toBe(true);
  }, 60_000);

  it("stays out when a tenant's own tool is among the ten, even one found by a single word", () => {
    // The requests no tool serves were checked against the public catalogs only: a tenant may have
    // added exactly the tool they lack, described in words of its own.
    const own = tenantTool('club', 'book', 'Book lessons.');
    const { answer, place } = withOwnTool(own, 'sign my kid up for swimming lessons at the community pool', 10);
    expect(place).toBeGreaterThanOrEqual(0);
    expect(place).toBeLessThan(5);
    expect(answer.nothingScore).toBeUndefined();
  }, 60_000);

  it('knows every union tool as known or thinly described public, and no relabelled copy as public', () => {
    // The generated lists match the catalogs (known-tools.ts writes both): a union tool missing from
    // both would count as a tenant's own and keep the rule out — safe, but a drift to catch.
    const { documents } = union();
    expect(documents.filter((document) => !isKnownTool(document) && !isThinPublicTool(document))).toEqual([]);
    const thin = documents.filter((document) => !isKnownTool(document));
    expect(thin.length).toBeGreaterThan(0);
    expect(thin.some((document) => isThinPublicTool({ ...document, label: `${document.label}-own` }))).toBe(false);
  }, 60_000);

  it("reads the ten tools' own example requests for a CJK pair they lack", () => {
    // The weather tools' texts are English; their Chinese and Japanese examples say 天气 (weather).
    const { documents, engine } = union();
    const examples = engine.learned?.examples;
    const weather = engine.answer('查看明天下午的天气', 10).hits.filter((hit) => examples?.has(hit.index) === true);
    expect(weather.length).toBeGreaterThan(0);
    const indices = weather.map((hit) => hit.index);
    expect(examples?.saidFor('天气', indices)).toBe(true);
    expect(examples?.saidFor('蜡笔', indices)).toBe(false);
    expect(documents.length).toBeGreaterThan(6000);
  }, 60_000);

  it("stays out when a tenant's tool is named like a thinly described public one", () => {
    // Found by a review: public tools with no description ("add", "search_contacts") were known
    // by name alone, so a tenant's tool of the same name passed for public. The server's label now
    // tells them apart. Written for this test: the request names a service no catalog has.
    const { answer, place } = withOwnTool(
      tenantTool('tolls', 'add', ''),
      "Add my new car's license plate to my E-ZPass account.",
      10,
    );
    expect(place).toBeGreaterThanOrEqual(0);
    expect(answer.nothingScore).toBeUndefined();
  }, 60_000);

  it('gives requests whose only likeness to one no tool serves is a word no tool example uses', () => {
    // Found by a review: each word below alone (or a CJK pair across two words) once reached the
    // threshold, withholding confident answers with the right tool first. The first came back in
    // the twenty-fifth session, won on the time words 明天 and 下午 of a courier-pickup request no
    // tool serves: CJK pairs now count as lacking only when no example of the ten tools says them.
    expectGiven(['查看明天下午的天气', '在谷歌日历上预约明天下午的会议', 'list my Stripe membership subscriptions']);
  }, 60_000);

  it('gives requests whose likeness to one no tool serves lies only in words their tools have', () => {
    // Found by a review: "enable auto-merge on GitHub pull request" (no tool does that) holds every
    // word these share with it, and outscored the examples of the merge tool that serves them.
    // Found by the next review: any word the tools lacked ("alice's", "kindly", a typo) brought it back.
    expectGiven([
      'merge the pull request on github',
      'github merge pull request',
      'merge pull request',
      "merge alice's pull request on github",
      'kindly merge the pull request on github',
      'merge the pull request on githib',
    ]);
  }, 60_000);

  it('keeps the cost of a pasted 8 KiB request that reaches the rule bounded', () => {
    // The worst a tenant can send this path: the errand, then 8 KiB of distinct words, so the
    // votes read their 64 terms and the rule's word check its 64 words against ten tools.
    const { engine } = union();
    const words = ['merge', 'pull', 'request', 'github', 'issue', 'branch', 'commit', 'review', 'label', 'file'];
    let pasted = `${ERRAND} `;
    for (let at = 0; pasted.length < 8_192; at += 1) pasted += `${words[at % words.length]}${at} `;
    // It does reach the rule: withheld as the errand alone is.
    expect(engine.answer(pasted.slice(0, 8_192), 5).nothingScore).toBeGreaterThanOrEqual(EXAMPLES.nothing.score);
    const started = performance.now();
    for (let round = 0; round < 10; round += 1) engine.answer(pasted.slice(0, 8_192), 5);
    // Measured about 3 ms a request on this machine; the bound leaves room for a slow hour.
    expect((performance.now() - started) / 10).toBeLessThan(20);
  }, 60_000);

  it('keeps the cost of a Japanese request with 8 K pasted characters that reaches the rule bounded', () => {
    // The CJK side of the word check: every pair the ten tools lack is looked up among their own
    // examples (`saidFor`). Written for this test: a My Number card renewal, then 8 K distinct
    // kanji, so the examples and the word check read their most pairs.
    const { engine } = union();
    let pasted = 'マイナンバーカードの更新手続きを代わりにやっておいてもらえますか？';
    for (let at = 0; pasted.length < 8_192; at += 1) pasted += String.fromCharCode(0x4e00 + ((at * 37) % 20_000));
    expect(engine.answer(pasted, 5).nothingScore).toBeGreaterThanOrEqual(EXAMPLES.nothing.score);
    const started = performance.now();
    for (let round = 0; round < 10; round += 1) engine.answer(pasted, 5);
    // Measured about 5 ms a request on this machine; the bound leaves room for a slow hour.
    expect((performance.now() - started) / 10).toBeLessThan(20);
  }, 60_000);

  it('withholds none of the hand-written answerable requests', () => {
    // Measured on every tuning and frozen part: no hit withheld by this rule (BENCHMARKS.md).
    const { engine } = union();
    const parsed = parseQueryFile(readFileSync(resolve(here, '../eval/answerable-queries.jsonl'), 'utf8'));
    if (!parsed.ok) throw new Error(parsed.message);
    for (const { query } of parsed.queries) expect(engine.answer(query, 5).nothingScore, query).toBeUndefined();
  }, 60_000);
});

reportSharedDataSkip(it.skip);
