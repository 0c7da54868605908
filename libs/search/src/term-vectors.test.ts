import { describe, expect, it } from 'vitest';
import { analyzeQuery } from './analyzer';
import { CONFIDENCE_MODEL } from './generated/confidence-model';
import { TERM_VECTORS } from './generated/term-vectors';
import { contextSupport, contextTool, holds } from './term-vectors';

// The engine passes only the request's catalog words (`context-check.ts`); here every analysed
// word goes in, which the check treats the same way (a word without a vector is no evidence).
const support = (request: string, ...tools: [string, string][]) =>
  contextSupport(
    analyzeQuery(request),
    tools.map(([name, description]) => contextTool(name, description)),
  );

describe('term vectors (the context check of doubtful answers)', () => {
  it('ships one unit vector of signed bytes per word, in a sorted vocabulary', () => {
    const words = TERM_VECTORS.terms.split(' ').map((entry) => entry.slice(0, entry.lastIndexOf(':')));
    expect(words.length).toBeGreaterThan(1000);
    expect([...words].sort()).toEqual(words);
    const bytes = atob(TERM_VECTORS.vectors);
    expect(bytes.length).toBe(words.length * TERM_VECTORS.rank);
    // Word 0's vector has length 127 (a unit vector scaled to a byte), up to rounding.
    let norm = 0;
    for (let k = 0; k < TERM_VECTORS.rank; k += 1) norm += ((bytes.charCodeAt(k) << 24) >> 24) ** 2;
    expect(Math.sqrt(norm)).toBeGreaterThan(120);
    expect(Math.sqrt(norm)).toBeLessThan(134);
  });

  it('finds the rest of a request on the subject of the tool that serves it, and off it for a lookalike', () => {
    const served = support('draw a flowchart of a sorting algorithm with mermaid', [
      'validateMermaid',
      'Validates a Mermaid diagram and returns the rendered SVG if valid',
    ]);
    const lookalike = support('fix the leaking kitchen faucet', ['faucet', 'Get faucet from sui networks']);
    // On either side of the shipped gate's support threshold.
    const gate = CONFIDENCE_MODEL.context?.support ?? 0.2;
    expect(served).toBeGreaterThan(gate);
    expect(lookalike).toBeLessThan(gate);
  });

  it('takes the best supported of several tools', () => {
    const off: [string, string] = ['leave_whatsapp_group', 'Leave a WhatsApp group'];
    const on: [string, string] = ['get_forecast', 'Weather forecast for a city'];
    const request = 'check tomorrow rain and wind for my cycling trip';
    expect(support(request, on)).toBeGreaterThan(support(request, off));
    expect(support(request, off, on)).toBe(Math.max(support(request, off), support(request, on)));
  });

  it('reads 1 when nothing of the request speaks against the tool, 0 with no tool', () => {
    // Every word matched, or the unmatched ones never learned (too rare, misspelled): no evidence.
    expect(support('weather forecast', ['get_forecast', 'Weather forecast for a city'])).toBe(1);
    expect(support('qzxv wkpl forecast', ['get_forecast', 'Weather forecast for a city'])).toBe(1);
    expect(contextSupport(['weather'], [])).toBe(0);
  });

  it('skips a tool none of whose own words has a vector (no evidence either way)', () => {
    const blank: [string, string] = ['zqxj_vvkp', 'qzxv wkpl jjfr'];
    const faucet: [string, string] = ['faucet', 'Get faucet from sui networks'];
    const request = 'fix the leaking kitchen faucet';
    expect(support(request, blank)).toBe(1);
    expect(support(request, blank, faucet)).toBe(support(request, faucet));
  });

  it('finds ids in a sorted id list', () => {
    const ids = Int32Array.from([42, 3, 17, 8]).sort();
    expect([...ids]).toEqual([3, 8, 17, 42]);
    for (const id of [3, 8, 17, 42]) expect(holds(ids, id)).toBe(true);
    for (const id of [0, 4, 18, 43, -1]) expect(holds(ids, id)).toBe(false);
    expect(holds(new Int32Array(0), 1)).toBe(false);
  });

  it('bounds its cost on a pasted request and a huge description', () => {
    const request = analyzeQuery('summarise the error codes and timestamps of this log line '.repeat(2000));
    const description = 'Reads and parses application logs, filters by level and time range. '.repeat(5000);
    const started = performance.now();
    for (let round = 0; round < 20; round += 1)
      contextSupport(request, [contextTool('read_logs', description), contextTool('tail_logs', description)]);
    expect((performance.now() - started) / 20).toBeLessThan(20);
  });
});
