import { describe, expect, it } from 'vitest';
import { hasSharedData, loadSharedCatalog, reportSharedDataSkip } from '@toolsearch/testing';
import { EMPTY_GROUP_HINT, handleToolSearch, MAX_CLOSEST_SOURCES, NO_GOOD_MATCH_HINT } from '../src/index';
import { sessionOf } from './bridge-fixture';

// A withheld answer ("no good match") on a real catalog: the confidence model was fitted there,
// and a catalog under 100 tools never withholds anything.
describe.skipIf(!hasSharedData())('tool_search when search withholds its answer (6,685-tool union)', () => {
  let built: ReturnType<typeof sessionOf> | undefined;
  const union = () => (built ??= sessionOf(loadSharedCatalog('github', 'livemcpbench', 'toucan')));
  const search = (queries: string[]) => {
    const outcome = handleToolSearch(union(), { queries, limit: 5 });
    if (!outcome.ok) throw new Error(outcome.error.message);
    return outcome.result;
  };

  it('names the sources that came nearest, nearest first, beside the connected ones', () => {
    const session = union();
    // Espresso machines' status tools share words with it; none brews anything.
    const query = 'brew me a cup of espresso right now';
    const answer = session.engine.answer(query, 5);
    expect(answer.hits).toEqual([]);
    expect(answer.nearest.length).toBeGreaterThan(0);
    const nearestSources = [
      ...new Set(answer.nearest.map((hit) => session.table.deferred[hit.index]?.label ?? '')),
    ].slice(0, MAX_CLOSEST_SOURCES);

    const [group] = search([query]).results;
    expect(group?.matches).toEqual([]);
    expect(group?.closest_sources).toEqual(nearestSources);
    expect(group?.hint).toBe(NO_GOOD_MATCH_HINT);
    // The connected sources stay listed (the reference's contract for every empty group), after.
    expect(group?.available_sources?.length).toBeGreaterThan(100);
    expect(Object.keys(group ?? {})).toEqual(['query', 'matches', 'closest_sources', 'available_sources', 'hint']);
  }, 60_000);

  it('keeps the plain empty group when nothing came near, and adds nothing to answered queries', () => {
    const [nonsense, answered] = search(['qzxv wkpl jjfr', 'create a github issue']).results;
    expect(nonsense?.matches).toEqual([]);
    expect(nonsense).not.toHaveProperty('closest_sources');
    expect(nonsense?.hint).toBe(EMPTY_GROUP_HINT);
    expect(answered?.matches.length).toBeGreaterThan(0);
    expect(answered).not.toHaveProperty('closest_sources');
    expect(answered).not.toHaveProperty('hint');
  }, 60_000);
});
reportSharedDataSkip(it.skip);
