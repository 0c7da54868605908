import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_CATALOGS, reportSharedDataSkip, sharedDataPath } from '@toolsearch/testing';
import { countTokens, isEncodingName, tokenCounter } from './token-counter';

const SAMPLES = [
  '',
  'hello world',
  'Open an issue. Second sentence dropped.',
  "I'm sure they'll say it's fine, WE'RE READY",
  '{"type":"object","properties":{"query":{"type":"string","description":"Search text"}},"required":["query"]}',
  '<|endoftext|> is plain text here <|fim_prefix|>',
  '天气查询：返回指定城市的天气预报。東京の天気を調べます。날씨 검색',
  'numbers 1234567 3.14159 and 2026-12-02T13:50:00Z',
  'tabs\tand\r\nnewlines\n\n\n  indented line\n   \n',
  'emoji 🚀🔥 and combining é and ZWJ 👩‍💻',
  '- github__create_issue: Open a new issue.\n- github__list: List things…\nlinear (2 tools): a, b',
  'path/to/file.ts //comment\n/leading slash line',
  'lone surrogate \ud800 inside',
  // Latin-1 characters are one char code below 256 but two UTF-8 bytes: never a one-byte token.
  ' × ÷ ° ¿¡ ÿ ñ ß "é" µs ©®',
  'Û',
  // Line-break boundaries (a letter, digit or '-' after a line break) next to what could reach across.
  'line one\n- item\n\n-two\n/slash\n\tTab\n x\n\r\nA1\n9\nend.\n-\n.\n//x\n \n-y\n',
  'heading (2 tools):\n- a__b: Does x.\n- a__c\nnext (1 tool): d\nlast: 3 tools',
  'È\nÝ\nþ\n¸\nÅ',
  // Chunk boundaries (a double quote after an ASCII letter or digit) next to everything that could
  // make a piece reach across them.
  `it's" don't"ABC"x1234"5 'S"'ll"a\u0301"é" "\n"  "  x"\t"Q"\u00a0"ab"`,
  '{"name":"get_weather","description":"Get the weather.","parameters":{"type":"object","properties":{"city":{"type":"string","enum":["NYC","LA"]},"days":{"type":"integer","maximum":14}},"required":["city"]}}',
];

describe('TokenCounter', () => {
  for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
    it(`agrees with tiktoken encode_ordinary on tricky text (${encoding})`, () => {
      const counter = tokenCounter(encoding);
      for (const sample of SAMPLES)
        expect(counter.count(sample), JSON.stringify(sample)).toBe(counter.countDirect(sample));
    });
  }

  it('agrees with tiktoken on seeded random text, long pieces included', () => {
    const alphabet = [
      'a',
      'Z',
      'é',
      '字',
      'ー',
      '🚀',
      ' ',
      '  ',
      '\n',
      '.',
      '{',
      '"',
      ':',
      '7',
      '_',
      '/',
      "'s",
      'ing',
      'tion',
      'の',
    ];
    let seed = 20261202;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const counter = tokenCounter(encoding);
      for (let sample = 0; sample < 300; sample += 1) {
        const length = 1 + Math.floor(next() * (sample % 10 === 0 ? 400 : 40));
        const text = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
        expect(counter.count(text), JSON.stringify(text)).toBe(counter.countDirect(text));
      }
      const longWord = 'x'.repeat(500) + 'abcdefghij'.repeat(30);
      expect(counter.count(longWord)).toBe(counter.countDirect(longWord));
    }
  });

  it('counts special-token text as ordinary text instead of throwing', () => {
    expect(countTokens('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('uses one counter per encoding for the whole process', () => {
    expect(tokenCounter('o200k_base')).toBe(tokenCounter());
    expect(tokenCounter('cl100k_base')).not.toBe(tokenCounter('o200k_base'));
  });

  it('gives different counts for the two encodings on non-English text', () => {
    const text = '天气查询：返回指定城市的天气预报。';
    expect(countTokens(text, 'o200k_base')).not.toBe(countTokens(text, 'cl100k_base'));
  });

  it('recognises the supported encoding names only', () => {
    expect(isEncodingName('o200k_base')).toBe(true);
    expect(isEncodingName('p50k_base')).toBe(false);
  });

  describe.skipIf(!hasSharedData())('on real catalogs', () => {
    it('is exact for every tool line of the LiveMCPBench and Toucan catalogs in both encodings', () => {
      for (const file of [SHARED_CATALOGS.livemcpbench, SHARED_CATALOGS.toucan]) {
        const lines = readFileSync(sharedDataPath(file), 'utf8').split('\n').filter(Boolean);
        for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
          const counter = tokenCounter(encoding);
          let mismatches = 0;
          for (const line of lines) if (counter.count(line) !== counter.countDirect(line)) mismatches += 1;
          expect(mismatches, `${file} ${encoding}`).toBe(0);
        }
      }
    }, 60_000);
  });
  reportSharedDataSkip(it.skip);
});
