import { describe, expect, it } from 'vitest';
import { learnRelated, type RelatedParams, type RequestPair } from '../scripts/related-words';

const PARAMS: RelatedParams = {
  minQueries: 3,
  minPairs: 2,
  minShare: 0.2,
  maxToolShare: 0.05,
  minLift: 20,
  minServers: 2,
  weight: 0.6,
};
/** Document frequencies of a 1,000-tool catalog: "remove" is rare, "get" is everywhere. */
const DF = new Map([
  ['delet', 20],
  ['get', 400],
  ['file', 30],
]);

const pair = (request: string, tool: string, server: string): RequestPair => ({
  request,
  toolTexts: [tool],
  servers: [server],
});

describe('related words learned from request / tool pairs', () => {
  it('learns the tool word that requests saying another word were served by, across servers', () => {
    const pairs = [
      pair('wipe the old notes', 'delete_note delete a note', 'a'),
      pair('wipe my draft', 'delete_draft delete a draft', 'b'),
      pair('wipe this file', 'delete_file delete a file get', 'c'),
    ];
    const learned = learnRelated(pairs, DF, 1000, PARAMS);
    const wipe = learned.filter((entry) => entry.from === 'wipe');
    expect(wipe.map((entry) => entry.to)).toContain('delet');
    // Everywhere-words are no signal, and a word the request says itself is never its own expansion.
    expect(wipe.map((entry) => entry.to)).not.toContain('get');
    expect(learned.some((entry) => entry.from === entry.to)).toBe(false);
    for (const entry of learned) expect(entry.weight).toBeLessThanOrEqual(PARAMS.weight);
  });

  it('learns nothing from one server: that is its vocabulary, not the language', () => {
    const pairs = [
      pair('wipe the old notes', 'delete_note delete a note', 'a'),
      pair('wipe my draft', 'delete_draft delete a draft', 'a'),
      pair('wipe this file', 'delete_file delete a file', 'a'),
    ];
    expect(learnRelated(pairs, DF, 1000, PARAMS).filter((entry) => entry.from === 'wipe')).toEqual([]);
  });

  it('counts copies of one tool under several servers once when two different tools are asked for', () => {
    const copy = (request: string, server: string): RequestPair => ({
      ...pair(request, 'delete_note delete a note', server),
      names: ['delete_note'],
    });
    const copies = [copy('wipe the old notes', 'a'), copy('wipe my draft', 'b'), copy('wipe this memo', 'c')];
    const strict = { ...PARAMS, minNames: 2 };
    expect(learnRelated(copies, DF, 1000, strict).filter((entry) => entry.from === 'wipe')).toEqual([]);
    const twoTools = [
      ...copies.slice(0, 2),
      { ...pair('wipe this file', 'delete_file delete a file', 'c'), names: ['delete_file'] },
    ];
    expect(learnRelated(twoTools, DF, 1000, strict).map((entry) => `${entry.from} ${entry.to}`)).toContain(
      'wipe delet',
    );
  });

  it('drops a tool word related to more request words than maxSources (tool-text filler)', () => {
    const pairs = ['wipe', 'erase', 'purge'].flatMap((word) =>
      ['a', 'b', 'c'].map((server) => pair(word, `delete_${server} delete a thing`, server)),
    );
    const related = (maxSources?: number) =>
      learnRelated(pairs, DF, 1000, { ...PARAMS, maxSources }).filter((entry) => entry.to === 'delet');
    expect(
      related()
        .map((entry) => entry.from)
        .sort(),
    ).toEqual(['eras', 'purg', 'wipe']);
    expect(related(2)).toEqual([]);
    expect(related(3)).toHaveLength(3);
  });

  it('needs the request word in enough requests', () => {
    const pairs = [
      pair('wipe the old notes', 'delete_note delete a note', 'a'),
      pair('wipe my draft', 'delete_draft', 'b'),
    ];
    expect(learnRelated(pairs, DF, 1000, PARAMS)).toEqual([]);
  });
});
