import { describe, expect, it } from 'vitest';
import {
  CATALOG_OPTION,
  JSON_OPTION,
  nearestOption,
  parseCommandArgs,
  UnknownOptionError,
  unknownOption,
} from './command-args';

const OPTIONS = {
  ...CATALOG_OPTION,
  ...JSON_OPTION,
  limit: { type: 'string' },
  explain: { type: 'boolean', short: 'e' },
} as const;

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

describe('parseCommandArgs', () => {
  it('names the nearest option when an unknown one is a near miss', () => {
    const error = thrown(() => parseCommandArgs(['--catalgo', 'x', 'q'], OPTIONS));
    expect(error).toBeInstanceOf(UnknownOptionError);
    expect(error).toMatchObject({ option: '--catalgo', suggestion: '--catalog', exitCode: 2 });
    expect((error as Error).message).toBe("unknown option '--catalgo'; did you mean --catalog?");
  });

  it('gives no suggestion when no option is close', () => {
    const error = thrown(() => parseCommandArgs(['--verbose', 'q'], OPTIONS));
    expect(error).toMatchObject({ option: '--verbose', suggestion: undefined });
    expect((error as Error).message).toBe("unknown option '--verbose'.");
  });

  it('names the unknown option also in --name=value form, after known ones and in short groups', () => {
    expect(thrown(() => parseCommandArgs(['--json', '--limt=3'], OPTIONS))).toMatchObject({
      option: '--limt',
      suggestion: '--limit',
    });
    expect(thrown(() => parseCommandArgs(['-ez'], OPTIONS))).toMatchObject({ option: '-z', suggestion: undefined });
  });

  it('leaves other parse errors and arguments after -- alone', () => {
    expect(thrown(() => parseCommandArgs(['--limit'], OPTIONS))).toMatchObject({
      code: 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE',
    });
    expect(parseCommandArgs(['--json', '--', '--catalgo'], OPTIONS).positionals).toEqual(['--catalgo']);
  });
});

describe('unknownOption', () => {
  it('returns the first option the command lacks, as typed', () => {
    expect(unknownOption(['q', '--jsno', '--x'], OPTIONS)).toBe('--jsno');
    expect(unknownOption(['--catalog', 'a', '-e'], OPTIONS)).toBeUndefined();
  });
});

describe('nearestOption', () => {
  it('counts a swap of neighbours as one edit and allows one edit per three letters', () => {
    expect(nearestOption('--jsno', OPTIONS)).toBe('--json');
    expect(nearestOption('--explian', OPTIONS)).toBe('--explain');
    expect(nearestOption('--catlg', OPTIONS)).toBe('--catalog');
    expect(nearestOption('--lim', OPTIONS)).toBeUndefined();
    expect(nearestOption('--x', OPTIONS)).toBeUndefined();
  });

  it('guesses no long option for a short one', () => {
    expect(nearestOption('-j', { k: { type: 'string' } })).toBeUndefined();
    expect(nearestOption('--j', { k: { type: 'string' } })).toBe('--k');
  });
});
