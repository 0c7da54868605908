import { describe, expect, it } from 'vitest';
import { analyze, analyzeQuery, termSurfaces } from './analyzer';

describe('analyze', () => {
  it('stems the index and the query the same way', () => {
    expect(analyze('issues')).toEqual(analyze('issue'));
    expect(analyze('creating messages')).toEqual(analyze('create message'));
    expect(analyze('repositories meetings running')).toEqual(['repositori', 'meet', 'run']);
  });

  it('splits snake_case, kebab-case, dots and slashes', () => {
    expect(analyze('github_create_issue')).toEqual(['github', 'creat', 'issu']);
    expect(analyze('get-weread-rank v1.users/list')).toEqual(['get', 'weread', 'rank', 'v1', 'user', 'list']);
  });

  it('keeps a camelCase word whole and also splits it', () => {
    expect(analyze('getUserProfile')).toEqual(['getuserprofil', 'get', 'user', 'profil']);
    expect(analyze('WeChat')).toEqual(['wechat', 'we', 'chat']);
    expect(analyze('HTTPServer')).toEqual(['httpserver', 'http', 'server']);
  });

  it('indexes runs of CJK characters as overlapping bigrams', () => {
    expect(analyze('天気予報')).toEqual(['天気', '気予', '予報']);
    expect(analyze('乗換案内を検索')).toEqual(['乗換', '換案', '案内', '内を', 'を検', '検索']);
    expect(analyze('查')).toEqual(['查']);
  });

  it('keeps Latin words next to CJK text apart', () => {
    expect(analyze('12306余票API')).toEqual(['12306', '余票', 'api']);
  });

  it('keeps letters of other scripts and folds accents', () => {
    expect(analyze('Погода café')).toEqual(['погода', 'cafe']);
  });
});

describe('termSurfaces', () => {
  it('gives each stem the word of the text it came from', () => {
    const surfaces = termSurfaces('Lists the Repositories of individual users; repository meetings');
    expect(surfaces.get('repositori')).toBe('repositories');
    expect(surfaces.get('individu')).toBe('individual');
    expect([...surfaces.keys()]).toEqual(
      analyze('Lists the Repositories of individual users; repository meetings').filter(
        (term, index, all) => all.indexOf(term) === index,
      ),
    );
  });

  it('gives camelCase parts, Latin runs in CJK text and folded accents their own words', () => {
    expect(Object.fromEntries(termSurfaces('listRepositories'))).toEqual({
      listrepositori: 'listrepositories',
      list: 'list',
      repositori: 'repositories',
    });
    expect(Object.fromEntries(termSurfaces('検索Repositories Café'))).toEqual({
      検索: '検索',
      repositori: 'repositories',
      cafe: 'café',
    });
  });
});

describe('analyzeQuery', () => {
  it('drops stop words', () => {
    expect(analyzeQuery('create a github issue for me')).toEqual(['creat', 'github', 'issu']);
    expect(analyzeQuery("I'm looking for the weather")).toEqual(['look', 'weather']);
  });

  it('drops the hiragana of Japanese requests (particles, endings), not of tool text', () => {
    expect(analyzeQuery('乗換案内を検索してください')).toEqual(['乗換', '換案', '案内', '検索']);
    expect(analyze('乗換案内を検索')).toContain('を検');
    // A request of nothing but hiragana keeps it.
    expect(analyzeQuery('てんき')).toEqual(['てん', 'んき']);
  });

  it('keeps stop words when nothing else is left', () => {
    expect(analyzeQuery('all of them')).toEqual(['all', 'of', 'them']);
  });
});
