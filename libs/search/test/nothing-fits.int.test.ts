import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasSharedData, reportSharedDataSkip } from '@toolsearch/testing';
import { unionTools } from './engine-fixture';
import { DEFAULT_RANKING, EXAMPLES, parseQueryFile, SearchEngine, toSearchDocument } from '../src/index';

const here = dirname(fileURLToPath(import.meta.url));

// "Nothing fits" on the 6,685-tool union: a request that reads like one of the requests no union
// tool serves (training/no-capability-requests.jsonl) more than like any example of the tools found
// is withheld, confident or not. The request below was written for this test.
const ERRAND = 'rerun the failed Circle CI workflow';

describe.skipIf(!hasSharedData())('nothing fits, on the 6,685-tool union', () => {
  let built: { documents: ReturnType<typeof toSearchDocument>[]; engine: SearchEngine } | undefined;
  const union = () => {
    if (built !== undefined) return built;
    const documents = unionTools().map((tool) => toSearchDocument(tool));
    built = { documents, engine: new SearchEngine(documents) };
    return built;
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
    const { documents } = union();
    const own = {
      name: 'ci__rerun_workflow',
      originalName: 'rerun_workflow',
      label: 'ci',
      source: 'circleci-tools',
      description: 'Re-run a failed CircleCI workflow of a project branch, from the start or from the failed jobs.',
      parameters: [],
      parameterDocs: '',
      tags: [],
      sourceDescription: '',
    };
    const engine = new SearchEngine([...documents, own]);
    const answer = engine.answer(ERRAND, 5);
    expect(answer.hits.map((hit) => hit.index)).toContain(documents.length);
    expect(answer.nothingScore).toBeUndefined();
  }, 60_000);

  it('gives requests whose only likeness to one no tool serves is a word no tool example uses', () => {
    // Found by a review: each word below alone (or a CJK pair across two words) once reached the
    // threshold, withholding confident answers with the right tool first.
    const { engine } = union();
    for (const query of [
      '查看明天下午的天气',
      '在谷歌日历上预约明天下午的会议',
      'list my Stripe membership subscriptions',
    ]) {
      const answer = engine.answer(query, 5);
      expect(answer.nothingScore, query).toBeUndefined();
      expect(answer.hits.length, query).toBeGreaterThan(0);
    }
  }, 60_000);

  it('gives requests whose likeness to one no tool serves lies only in words their tools have', () => {
    // Found by a review: "enable auto-merge on GitHub pull request" (no tool does that) holds every
    // word these share with it, and outscored the examples of the merge tool that serves them.
    const { engine } = union();
    // Found by the next review: any word the tools lacked ("alice's", "kindly", a typo) brought it back.
    for (const query of [
      'merge the pull request on github',
      'github merge pull request',
      'merge pull request',
      "merge alice's pull request on github",
      'kindly merge the pull request on github',
      'merge the pull request on githib',
    ]) {
      const answer = engine.answer(query, 5);
      expect(answer.nothingScore, query).toBeUndefined();
      expect(answer.hits.length, query).toBeGreaterThan(0);
    }
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
