import { readdirSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { analyzeQuery } from '../src/index';

const here = dirname(fileURLToPath(import.meta.url));
/** Term-set Jaccard from which a training request counts as a near copy of an evaluation request. */
const NEAR = 0.7;

const queriesOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => (JSON.parse(line) as { query: string }).query);

// The requests no tool serves are examples search reads ("nothing fits"): one equal or nearly equal
// to an evaluation request would turn that request's measurement into a memory test.
describe('the requests no tool serves, beside the evaluation sets', () => {
  it('hold no copy or near copy of an evaluation request', () => {
    const evalDir = resolve(here, '../eval');
    const evaluation = readdirSync(evalDir)
      .filter((file) => file.endsWith('.jsonl'))
      .flatMap((file) => queriesOf(resolve(evalDir, file)))
      .map((query) => new Set(analyzeQuery(query)));
    const near = (terms: Set<string>) =>
      evaluation.some((other) => {
        let shared = 0;
        for (const term of terms) if (other.has(term)) shared += 1;
        return shared / Math.max(1, terms.size + other.size - shared) >= NEAR;
      });
    for (const file of ['no-capability-requests.jsonl']) {
      const copies = queriesOf(resolve(here, '../training', file)).filter((query) =>
        near(new Set(analyzeQuery(query))),
      );
      expect(copies, file).toEqual([]);
    }
  });
});
