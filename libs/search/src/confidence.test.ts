import { describe, expect, it } from 'vitest';
import { buildSessionTools, defaultToolSearchConfig } from '@toolsearch/catalog';
import { tool, toolset } from '@toolsearch/testing';
import { confidenceOf } from './confidence';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import { DEFAULT_RANKING } from './ranking-options';
import { MIN_TOOLS_TO_ABSTAIN, SearchEngine } from './search-engine';
import { toSearchDocument } from './search-document';

// A catalog large enough for abstention: many services, each described in plain words.
const SERVICES = ['invoice', 'calendar', 'weather', 'github', 'slack', 'translate', 'pdf', 'email', 'maps', 'stock'];
const documents = buildSessionTools(
  [
    toolset('dogs', [tool('search_dog_images', 'Search images of dog breeds')]),
    ...SERVICES.map((service) =>
      toolset(
        service,
        Array.from({ length: 12 }, (_, i) =>
          tool(
            `${service}_action_${i}`,
            `Manage ${service} records: create, list, update or delete ${service} item ${i}.`,
          ),
        ),
      ),
    ),
  ],
  defaultToolSearchConfig(),
).deferred.map((t) => toSearchDocument(t));
const engine = new SearchEngine(documents);

describe('confidence and abstention', () => {
  it('is a probability that grows with how much of the request the tools cover', () => {
    const low = confidenceOf({
      covered: 0.1,
      coveredByFirst: 0.1,
      unknown: 0.8,
      unknownWords: 0.8,
      firstTerms: 0.5,
      bestTerms: 0.5,
    });
    const high = confidenceOf({
      covered: 1,
      coveredByFirst: 1,
      unknown: 0,
      unknownWords: 0,
      firstTerms: 1,
      bestTerms: 1,
    });
    expect(low).toBeGreaterThan(0);
    expect(high).toBeLessThan(1);
    expect(high).toBeGreaterThan(low);
    expect(high).toBeGreaterThan(CONFIDENCE_MODEL.abstainBelow);
  });

  it('answers a request a tool covers, with its confidence', () => {
    expect(documents.length).toBeGreaterThanOrEqual(MIN_TOOLS_TO_ABSTAIN);
    const answer = engine.answer('list my calendar records', 5);
    expect(answer.hits.length).toBeGreaterThan(0);
    expect(answer.confidence).toBeGreaterThan(CONFIDENCE_MODEL.abstainBelow);
    expect(answer.nearest).toEqual([]);
  });

  it('withholds lookalikes for a capability no tool has, and keeps them as nearest', () => {
    const query = 'give my dog a bath and trim its nails';
    const answer = engine.answer(query, 5);
    expect(answer.hits).toEqual([]);
    expect(answer.nearest.length).toBeGreaterThan(0);
    expect(answer.confidence).toBeLessThan(CONFIDENCE_MODEL.abstainBelow);
    // With abstention off the same lookalikes come back (the request encoder, which merges its
    // own nearest tools into doubtful answers, off too).
    const open = new SearchEngine(documents, { ...DEFAULT_RANKING, abstain: false, encode: false });
    expect(open.search(query, 5).map((hit) => hit.name)).toEqual(answer.nearest.map((hit) => hit.name));
  });

  it('counts a value (an id, a time, a code) as no capability the catalog lacks, and a name with a digit as a word', () => {
    const plain = engine.queryTerms('list my calendar records');
    for (const value of ['9am', 'p0420', 'inv2024x'])
      expect(engine.queryTerms(`list my calendar records ${value}`).unknownMass, value).toBe(plain.unknownMass);
    expect(engine.queryTerms('list my calendar records zorblax').unknownMass).toBeGreaterThan(plain.unknownMass);
    // A name with a digit or two ("k8s", "ec2") is a word like any other.
    expect(engine.queryTerms('list my calendar records k8s').unknownMass).toBeGreaterThan(plain.unknownMass);
    expect(engine.answer('list my calendar records for 9am', 5).confidence).toBe(
      engine.answer('list my calendar records for', 5).confidence,
    );
  });

  it('still returns nothing for nonsense and everything for an exact name', () => {
    expect(engine.answer('qzxv wkpl jjfr', 5)).toEqual({ hits: [], confidence: 0, nearest: [] });
    const exact = engine.answer('pdf__pdf_action_3', 5);
    expect(exact.hits[0]?.reason).toBe('exact');
    expect(exact.confidence).toBe(1);
  });

  it('never abstains in a small catalog, where most words of any request are unknown', () => {
    const small = new SearchEngine(documents.filter((doc) => doc.label === 'dogs' || doc.label === 'pdf'));
    const answer = small.answer('give my dog a bath and trim its nails', 5);
    expect(answer.hits.length).toBeGreaterThan(0);
  });
});
