import { describe, expect, it } from 'vitest';
import { closestNames } from './name-suggestions';

const NAMES = ['filesystem__read_file', 'filesystem__write_file', 'github__create_issue', 'github__list_issues'];

describe('closestNames', () => {
  it('finds the tool a mistyped name meant, nearest first', () => {
    expect(closestNames(NAMES, 'filesytem__read_file')).toEqual(['filesystem__read_file']);
    expect(closestNames(NAMES, 'github__list_issue')).toEqual(['github__list_issues']);
    expect(closestNames(NAMES, 'read_fil')[0]).toBe('filesystem__read_file'); // the part after the prefix
  });

  it('suggests nothing for a name far from every tool, or an overlong one', () => {
    expect(closestNames(NAMES, 'launch_rocket')).toEqual([]);
    expect(closestNames(NAMES, 'x'.repeat(10_000))).toEqual([]);
  });
});
