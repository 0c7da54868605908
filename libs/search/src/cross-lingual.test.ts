import { describe, expect, it } from 'vitest';
import { tool } from '@toolsearch/testing';
import { engineOf, names, rankedEngineOf } from '../test/engine-fixture';
import { MAX_LOANWORDS, MAX_RENDERINGS, translateCjk } from './cross-lingual';
import { romanize, withoutAddedVowels } from './katakana';
import { DEFAULT_RANKING } from './ranking-options';

const catalog = engineOf(
  ['fs', [tool('delete_file', 'Delete a file from the workspace'), tool('read_file', 'Read the contents of a file')]],
  ['weather', [tool('forecast', 'Weather forecast for a city for the next days')]],
  ['mail', [tool('send_email', 'Send an email message to a recipient')]],
);

describe('translateCjk', () => {
  it('reads the English words of a Japanese or Chinese request, leftmost-longest', () => {
    const japanese = translateCjk('このファイルを削除してください');
    expect(japanese?.terms.map((t) => t.term)).toEqual(['file', 'delet']);
    expect(japanese?.covered.has('ファイ')).toBe(false); // bigrams, not trigrams
    expect(japanese?.covered.has('削除')).toBe(true);
    expect(translateCjk('明天北京的天气怎么样')?.terms.map((t) => t.term)).toContain('weather');
  });

  it('leaves English requests and CJK text without a known word alone', () => {
    expect(translateCjk('delete this file')).toBeUndefined();
    expect(translateCjk('ぬぬぬぬぬ')).toBeUndefined();
  });

  it('takes a bounded number of renderings from pasted text, quickly', () => {
    const pasted = 'ファイルを削除'.repeat(5000);
    const started = performance.now();
    const translation = translateCjk(pasted);
    expect(performance.now() - started).toBeLessThan(50);
    expect(translation?.terms.length).toBeLessThanOrEqual(MAX_RENDERINGS);
  });
});

describe('search with Japanese and Chinese requests over English tools', () => {
  it('finds the tool the request asks for', () => {
    expect(names(catalog, 'このファイルを削除して', 1)).toEqual(['fs__delete_file']);
    expect(names(catalog, '明日の東京の天気を教えて', 1)).toEqual(['weather__forecast']);
    expect(names(catalog, '帮我发送一封邮件给老板', 1)).toEqual(['mail__send_email']);
  });

  it("counts a translated word as the request's own and explains where it came from", () => {
    const terms = catalog.queryTerms('ファイルを削除');
    const at = terms.terms.indexOf('delet');
    expect(terms.origins[at]).toBe('translation');
    expect(terms.sources[at]).toBe('削除');
    // The bigrams of the translated words are not counted as words no tool has.
    expect(terms.analysed.has('削除')).toBe(false);
  });

  it('changes nothing when switched off', () => {
    const off = rankedEngineOf({ ...DEFAULT_RANKING, translate: false }, [
      'fs',
      [tool('delete_file', 'Delete a file')],
    ]);
    expect(off.queryTerms('ファイルを削除').origins).not.toContain('translation');
  });
});

describe('katakana words', () => {
  it('are spelled in Latin letters, with the vowels Japanese adds taken out again', () => {
    expect(romanize('ウィキペディア')).toBe('wikipedia');
    expect(romanize('チャンピオン')).toBe('champion');
    expect(romanize('ショッピング')).toBe('shoppingu');
    expect(withoutAddedVowels('shoppingu')).toBe('shopping');
    expect(withoutAddedVowels('sukin')).toBe('skin');
    expect(romanize('カタカナ漢字')).toBeUndefined();
  });

  it('find the catalog word they are, whole before any rendering inside them', () => {
    const engine = engineOf(
      ['wikipedia', [tool('get_summary', 'Summary of a Wikipedia article')]],
      ['wiki', [tool('edit_page', 'Edit a page of a wiki')]],
      ['pokedex', [tool('random_pokemon', 'A random Pokemon from a region')]],
    );
    expect(names(engine, 'ウィキペディアの記事の要点を教えて', 1)).toEqual(['wikipedia__get_summary']);
    expect(names(engine, 'ランダムにポケモンを選んで', 1)).toEqual(['pokedex__random_pokemon']);
    const terms = engine.queryTerms('ウィキペディアの記事');
    expect(terms.terms).toContain('wikipedia');
    expect(terms.terms).not.toContain('wiki');
    expect(terms.sources[terms.terms.indexOf('wikipedia')]).toBe('ウィキペディア');
  });

  it('look at a bounded number of words and leave unknown names as they are', () => {
    const translation = translateCjk('アアアア・'.repeat(1000));
    expect(translation?.loanwords.length ?? 0).toBeLessThanOrEqual(MAX_LOANWORDS);
    expect(catalog.queryTerms('ウェストファリア').origins).not.toContain('translation');
  });
});

describe('the context check on translated requests', () => {
  it('judges the English words a Japanese request says (it used to see no word of it)', () => {
    const engine = engineOf(
      ['fs', [tool('delete_file', 'Delete a file from the workspace')]],
      ['weather', [tool('forecast', 'Weather forecast for a city')]],
    );
    const supportOf = (query: string) => {
      const terms = engine.queryTerms(query);
      return engine.contextSupportOf(terms, [{ index: 0, name: 'fs__delete_file', score: 1, reason: 'bm25' }]);
    };
    // Every word it says is in the tool: full support.
    expect(supportOf('ファイルを削除')).toBe(1);
    // The weather is not what a file tool is about (judged against the file tool alone).
    expect(supportOf('天気予報を削除')).toBeLessThan(0.5);
  });
});

describe('what a hostile or careless request cannot do', () => {
  it('finds no rendering of hiragana or Latin letters inside other words', () => {
    // がん ("cancer") inside がんばって, "SF" inside "SFTP".
    expect(translateCjk('がんばって応援して')?.terms.map((t) => t.term) ?? []).not.toContain('cancer');
    expect(translateCjk('SFTPで送って')?.terms.map((t) => t.term) ?? []).not.toContain('sci');
  });

  it('reads half-width katakana and decomposed kana like the usual forms', () => {
    expect(translateCjk('ﾌｧｲﾙを削除')?.terms.map((t) => t.term)).toEqual(['file', 'delet']);
    expect(translateCjk('ファイル'.normalize('NFD'))?.terms.map((t) => t.term)).toEqual(['file']);
  });

  it('gives a word its full weight when any rendering says it first', () => {
    const translation = translateCjk('概要を要約して');
    expect(translation?.terms.map((t) => t.term)).toContain('summari');
    expect(translation?.synonyms.map((t) => t.term)).not.toContain('summari');
  });

  it('spells at most MAX_LOANWORDS katakana words, none of them empty, quickly', () => {
    const always = () => true;
    expect(translateCjk('スキンx'.repeat(1000), always)?.loanwords.length).toBe(MAX_LOANWORDS);
    expect(translateCjk('ーーー・ッッッ・'.repeat(100), always)).toBeUndefined();
    const started = performance.now();
    for (let run = 0; run < 10; run += 1) translateCjk('ス'.repeat(8192), always);
    expect((performance.now() - started) / 10).toBeLessThan(20);
  });
});
