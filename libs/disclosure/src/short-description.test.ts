import { describe, expect, it } from 'vitest';
import { shortDescription, singleLine } from './short-description';

describe('shortDescription', () => {
  it('keeps the first sentence only', () => {
    expect(shortDescription('Open an issue. Second sentence dropped.')).toBe('Open an issue.');
    expect(shortDescription('Is it up? Then ping it!')).toBe('Is it up?');
  });

  it('does not end a sentence at e.g., i.e. or etc.', () => {
    expect(shortDescription('Fetch an issue, e.g. ENG-12. More text.')).toBe('Fetch an issue, e.g. ENG-12.');
    expect(shortDescription('Files, dirs etc. are listed. Rest.')).toBe('Files, dirs etc. are listed.');
  });

  it('does not cut inside a version number or a file name', () => {
    expect(shortDescription('Reads config.yaml and v2.1 files.')).toBe('Reads config.yaml and v2.1 files.');
  });

  it('clips long text at a word boundary with an ellipsis', () => {
    const clipped = shortDescription('word '.repeat(40));
    expect(clipped).toBe(`${'word '.repeat(12).trim()}…`);
    expect(clipped.length).toBeLessThanOrEqual(61);
  });

  it('strips trailing punctuation before the ellipsis', () => {
    expect(shortDescription(`${'a'.repeat(50)}, ${'b'.repeat(20)}`)).toBe(`${'a'.repeat(50)}…`);
  });

  it('collapses line breaks and control characters into one line', () => {
    expect(shortDescription('Line one\nstill one\u0007 sentence')).toBe('Line one still one sentence');
    expect(singleLine('a\r\n\tb\u2028c')).toBe('a b c');
  });

  it('ends a sentence at CJK full stops', () => {
    expect(shortDescription('天気を調べます。詳細は後で。')).toBe('天気を調べます。');
  });

  it('returns an empty string for an empty description', () => {
    expect(shortDescription('')).toBe('');
    expect(shortDescription('   ')).toBe('');
  });

  it('reads only as much of a long description as the line needs, with the same result', () => {
    const tail = ' More words follow here.'.repeat(4000);
    expect(shortDescription(`Finds files by name.${tail}`)).toBe('Finds files by name.');
    // The first sentence ends right after the 60-character limit: clipped as if read in full.
    expect(shortDescription(`${'abcde '.repeat(10)}xyz.${tail}`)).toBe(`${'abcde '.repeat(10).trim()}…`);
    // Hundreds of blank characters before the text: the prefix is too short once collapsed.
    expect(shortDescription(`${' \n\t'.repeat(300)}Starts late. Second.${tail}`)).toBe('Starts late.');
    expect(shortDescription(`${'\u0007'.repeat(500)}Bell text. Second.`)).toBe('Bell text.');
  });
});
