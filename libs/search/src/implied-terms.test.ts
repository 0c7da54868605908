import { describe, expect, it } from 'vitest';
import { tool } from '@toolsearch/testing';
import { impliedQueryTerms, valueHints } from './implied-terms';
import { EXPANSION } from './query-terms';
import { DEFAULT_RANKING } from './ranking-options';
import { engineOf, names, rankedEngineOf } from '../test/engine-fixture';

const kinds = (query: string) => valueHints(query).map((hint) => hint.term);

describe('impliedQueryTerms', () => {
  it('adds "file" for a request that names a file path, and "write" when it says to save it', () => {
    expect(impliedQueryTerms('Read the data under /root/excel/people.xlsx')).toEqual(['file']);
    expect(impliedQueryTerms('Generate a report and save it in /root/markdown/bitcoin.md')).toEqual(['file', 'write']);
    expect(impliedQueryTerms('write the summary to ~/notes/today.txt.')).toEqual(['file', 'write']);
  });

  it('adds nothing without a path to a file', () => {
    expect(impliedQueryTerms('save my work')).toEqual([]);
    expect(impliedQueryTerms('compare and/or merge the lists')).toEqual([]);
    expect(impliedQueryTerms('open https://example.com/page')).toEqual([]);
  });
});

describe('valueHints', () => {
  it('names the parameters the values of a request fill', () => {
    expect(kinds('tell ana@example.org the meeting moved')).toEqual(['email']);
    expect(kinds('what is on https://example.com/pricing')).toEqual(['url']);
    expect(kinds('summarise www.example.com')).toEqual(['url']);
    expect(kinds("I'm parked at 40.7580, -73.9855")).toEqual(['latitud', 'longitud']);
    expect(kinds('how much is 250 euros in kroner')).toEqual(['currenc', 'amount']);
    expect(kinds('I have $40 left')).toEqual(['currenc', 'amount']);
    expect(kinds('who owns 203.0.113.7')).toEqual(['ip']);
    expect(kinds('anything due on 2026-03-01')).toEqual(['date']);
    expect(kinds('standup at 9:30 am Berlin')).toEqual(['time']);
    expect(kinds('text +1 415 555 0199 that I am late')).toEqual(['phone']);
    expect(valueHints('mail ana@example.org')[0]?.kind).toBe('an e-mail address');
  });

  it('finds nothing in requests without such values', () => {
    for (const query of [
      'send an email to my landlord',
      'version 1.2 of the package',
      'list the top 10 repositories',
      'pages 3,5 and 7',
      'rename file.txt',
      '',
      'この住所を地図で',
    ])
      expect(kinds(query)).toEqual([]);
  });

  it('takes linear time on hostile input', () => {
    // Near-misses of every pattern, repeated: a backtracking pattern would take seconds here.
    for (const unit of ['1.', '1.11,', '+1 1', 'a@', '$', '1:', '1.1.1.', '-1.11 , ', 'www']) {
      const query = unit.repeat(Math.ceil(8192 / unit.length)).slice(0, 8192);
      const started = performance.now();
      valueHints(query);
      expect(performance.now() - started).toBeLessThan(50);
    }
  });
});

describe('value hints in search', () => {
  const catalog = [
    tool('send_email', 'Send a message', ['to', 'subject', 'body'], [], {}),
    tool('contact_email', 'Look up a contact', ['email']),
    tool('leak_report', 'Report a leaking kitchen faucet to facilities'),
  ] as const;

  it('adds the parameter word at a lower weight, outside the mass, and says why', () => {
    const engine = engineOf(['crm', [...catalog]]);
    const terms = engine.queryTerms('note for ana@example.org');
    const at = terms.origins.indexOf('value');
    expect(at).toBeGreaterThanOrEqual(0);
    expect(terms.terms[at]).toBe('email');
    expect(terms.weights[at]).toBe(EXPANSION.valueHintWeight);
    expect(terms.sources[at]).toBe('an e-mail address');
    const without = rankedEngineOf({ ...DEFAULT_RANKING, hintValues: false }, ['crm', [...catalog]]);
    expect(without.queryTerms('note for ana@example.org').origins).not.toContain('value');
    expect(terms.mass).toBeCloseTo(without.queryTerms('note for ana@example.org').mass, 9);
  });

  it('lets a tool that takes the value be found when the request says only the value', () => {
    const engine = engineOf(['crm', [...catalog]]);
    expect(names(engine, 'look up ana@example.org')[0]).toBe('crm__contact_email');
    const without = rankedEngineOf({ ...DEFAULT_RANKING, hintValues: false }, ['crm', [...catalog]]);
    expect(names(without, 'look up ana@example.org')[0]).not.toBe('crm__contact_email');
  });

  it('does not answer a request made of a value alone when no tool takes it', () => {
    const engine = engineOf(['crm', [...catalog]]);
    expect(names(engine, '9:30')).toEqual([]);
  });
});
