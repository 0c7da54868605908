import { describe, expect, it } from 'vitest';
import { EXAMPLE_CATALOG, runCli } from './run-cli';

describe('toolsearch describe', () => {
  it('answers a mistyped name with "did you mean" the nearest tool', async () => {
    const { code, out } = await runCli(['describe', '--catalog', EXAMPLE_CATALOG, 'github__create_isue']);
    expect(code).toBe(0);
    const result = JSON.parse(out) as { not_found?: string[]; hint?: string };
    expect(result.not_found).toEqual(['github__create_isue']);
    expect(result.hint).toContain('Did you mean: github__create_issue?');
  });
});
