import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTRACT_DOC_PATH, contractMarkdown, documentedCodes } from '../scripts/contract-doc';
import { CALL_ERROR_CODES, ENDPOINTS, EVENTS, EXEC, SUBJECT_PREFIX, WIRE_ERROR_CODES } from '../src/index';

describe('docs/contract.md', () => {
  it('is what the generator writes (npm run generate -w @toolsearch/proto)', async () => {
    const onDisk = readFileSync(new URL(`../../${CONTRACT_DOC_PATH}`, import.meta.url), 'utf8');
    expect(onDisk).toBe(await contractMarkdown());
  });

  it('lists every endpoint, event and the exec subject with its purpose', async () => {
    const page = await contractMarkdown();
    const subjects = [...Object.values(ENDPOINTS), ...Object.values(EVENTS), EXEC];
    for (const { template, purpose } of subjects) {
      expect(page).toContain(`\`${template.slice(SUBJECT_PREFIX.length + 1)}\``);
      expect(page).toContain(purpose);
    }
  });

  it('gives every wire and call error code the meaning of its doc comment', () => {
    // documentedCodes throws when a code has no doc comment or the source and the constant disagree.
    const wire = documentedCodes('proto/src/errors.ts', 'WIRE_ERROR_CODES', Object.keys(WIRE_ERROR_CODES));
    const call = documentedCodes('proto/src/errors.ts', 'CALL_ERROR_CODES', Object.keys(CALL_ERROR_CODES));
    for (const { meaning } of [...wire, ...call]) expect(meaning.length).toBeGreaterThan(10);
    expect(wire.find((entry) => entry.code === 'DECISION_MISMATCH')?.meaning).toBe(
      'The decision names another tool or argument digest than the held call: nothing was decided.',
    );
  });

  it('refuses a constant whose source does not match its keys', () => {
    expect(() => documentedCodes('proto/src/errors.ts', 'WIRE_ERROR_CODES', ['BAD_REQUEST'])).toThrow(/reads as/);
    expect(() => documentedCodes('proto/src/errors.ts', 'NO_SUCH_CODES')).toThrow(/no object literal/);
  });
});
