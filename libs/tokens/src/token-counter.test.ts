import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { hasSharedData, SHARED_CATALOGS, reportSharedDataSkip, sharedDataPath } from '@toolsearch/testing';
import { RankTable } from './bpe-ranks';
import {
  countTokens,
  isEncodingName,
  nativeTokenCounting,
  tokenCounter,
  TokenCounter,
  type EncodingName,
} from './token-counter';

const ENCODING_NAMES = ['o200k_base', 'cl100k_base'] as const;
const NATIVE_SKIP_REASON =
  'the native token counter is not built (no C++ toolchain when the workspace was installed); ' +
  'the JavaScript path is tested on its own below';

// The process-wide counters take the native path when it is built; these keep to JavaScript.
const javascriptCounters = new Map<EncodingName, TokenCounter>();
function javascriptCounter(encoding: EncodingName): TokenCounter {
  let counter = javascriptCounters.get(encoding);
  if (counter === undefined) {
    counter = new TokenCounter(encoding, RankTable.load(encoding), { native: false });
    javascriptCounters.set(encoding, counter);
  }
  return counter;
}

const PATHS = [
  { path: 'native', counter: tokenCounter, available: nativeTokenCounting() },
  { path: 'JavaScript', counter: javascriptCounter, available: true },
] as const;

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
  // tiktoken's white space is Unicode White_Space: U+0085 is white space, U+FEFF is not.
  'a\u0085b \u0085 x\u0085\n y \ufeff\ufeffz\ufeff',
  // Letters of every case class (Lt, Lm, Lo), marks after upper and lower case, other scripts.
  'ǅungla ǈubljana ʰello ÀÉÎõü STRAẞE straße ÉCOLEé',
  'A\u0301B\u0301c e\u0301\u0301 \u0301x \u0301\u0301 .\u0301a ABC\u0301 ab\u0301C',
  'नमस्ते दुनिया ٣٤٥٦١ ١٢ ²³ Ⅻ½ 第1234章',
  'non-breaking\u00a0space\u2028line\u3000ideographic \u2003\n\u00a0\nend',
  // Characters outside the Basic Multilingual Plane (surrogate pairs) next to everything else:
  // math letters of both cases, astral digits, CJK extension B, emoji with a skin-tone modifier,
  // an astral combining mark, a tag character, an unassigned code point, lone surrogates.
  '𝐀𝐁𝐜 😀x 𝟘𝟙𝟚𝟛 a😀b 😀\n 😀 ok then 𝐀bc',
  '𝐚𝐁𝐜𝐀 A𝐚 𝐀a 𠀀𠀁字 👍🏻ok 1𝟘23 x\u{1D167}y 𝐀\u{1D167}b \u{E0020}tag \u{10FFFF} .😀a',
  'lone \ud800x \udc00y z\ud800',
];

// A seeded alphabet for random text: ASCII, every Unicode class the patterns tell apart,
// white space of several kinds, surrogate pairs and contractions.
const UNICODE_ALPHABET = [
  'a',
  'Z',
  'é',
  'É',
  'ǅ',
  'ʰ',
  'ß',
  '字',
  'ー',
  '\u0301',
  '\u0903',
  '٣',
  '²',
  'Ⅻ',
  '🚀',
  '𝐀',
  ' ',
  '  ',
  '\u00a0',
  '\u0085',
  '\ufeff',
  '\u2028',
  '\u3000',
  '\t',
  '\n',
  '\r',
  '.',
  '{',
  '"',
  ':',
  '7',
  '_',
  '/',
  "'s",
  "'LL",
  "'",
  'ing',
  'tion',
  'の',
  '-',
  '\u200d',
  '𝐚',
  '𝟘',
  '𠀀',
  '👍',
  '\u{1F3FB}',
  '\u{1D167}',
  '\u{E0020}',
  '\ud800',
];

describe('TokenCounter', () => {
  for (const { path, counter: counterFor, available } of PATHS) {
    describe.skipIf(!available)(`${path} path`, () => {
      it('is the path under test', () => {
        for (const encoding of ENCODING_NAMES) expect(counterFor(encoding).native).toBe(path === 'native');
      });

      for (const encoding of ENCODING_NAMES) {
        it(`agrees with tiktoken encode_ordinary on tricky text (${encoding})`, () => {
          const counter = counterFor(encoding);
          for (const sample of SAMPLES)
            expect(counter.count(sample), JSON.stringify(sample)).toBe(counter.countDirect(sample));
        });

        it(`counts a batch exactly, in order, like one text at a time (${encoding})`, () => {
          const counter = counterFor(encoding);
          const texts = [...SAMPLES, ...SAMPLES.map((sample) => sample.repeat(3)), 'x'.repeat(300)];
          expect(counter.countEach(texts)).toEqual(texts.map((text) => counter.countDirect(text)));
          expect(counter.countEach([])).toEqual([]);
        });

        it(`agrees with tiktoken on seeded random Unicode text (${encoding})`, () => {
          const counter = counterFor(encoding);
          let seed = 20261203;
          const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
          for (let sample = 0; sample < 3000; sample += 1) {
            const length = 1 + Math.floor(next() * 16);
            const text = Array.from(
              { length },
              () => UNICODE_ALPHABET[Math.floor(next() * UNICODE_ALPHABET.length)],
            ).join('');
            expect(counter.count(text), JSON.stringify(text)).toBe(counter.countDirect(text));
          }
        });
      }
    });
  }
  if (!nativeTokenCounting()) it.skip(NATIVE_SKIP_REASON, () => undefined);

  it('keeps new process-wide counters to JavaScript after useNativeTokenCounting(false)', () => {
    const script = [
      "import { tokenCounter, useNativeTokenCounting } from './src/index.ts';",
      'useNativeTokenCounting(false);',
      "process.stdout.write(JSON.stringify([tokenCounter().native, tokenCounter().count('hello world')]));",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
    });
    expect(child.stderr).toBe('');
    expect(JSON.parse(child.stdout)).toEqual([false, 2]);
  });

  describe('batches', () => {
    it('finish even when producing a text throws, and the next batch works', () => {
      const counter = tokenCounter();
      function* failing(): Generator<string> {
        yield 'first text';
        throw new Error('producer failed');
      }
      expect(() => counter.countEach(failing())).toThrow('producer failed');
      expect(counter.countEach(['hello world', 'again'])).toEqual([2, 1]);
    });

    it('count a batch started inside another one (the inner one in place) and keep both exact', () => {
      const counter = tokenCounter();
      const outer = counter.batch();
      outer.add('outer text one');
      expect(counter.countEach(['inner text', 'more inner text'])).toEqual([2, 3]);
      outer.add('outer text two');
      expect(outer.finish()).toEqual([3, 3]);
      expect(outer.finish()).toEqual([3, 3]);
      expect(() => outer.add('late')).toThrow(/finished/);
    });
  });

  it('agrees with tiktoken on seeded random text, long pieces included', () => {
    let seed = 20261202;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      const counter = tokenCounter(encoding);
      for (let sample = 0; sample < 300; sample += 1) {
        const length = 1 + Math.floor(next() * (sample % 10 === 0 ? 400 : 40));
        const text = Array.from({ length }, () => UNICODE_ALPHABET[Math.floor(next() * UNICODE_ALPHABET.length)]).join(
          '',
        );
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
    for (const { path, counter: counterFor, available } of PATHS) {
      it.skipIf(!available)(
        `is exact for every tool line of the LiveMCPBench and Toucan catalogs in both encodings (${path} path)`,
        () => {
          for (const file of [SHARED_CATALOGS.livemcpbench, SHARED_CATALOGS.toucan]) {
            const lines = readFileSync(sharedDataPath(file), 'utf8').split('\n').filter(Boolean);
            for (const encoding of ENCODING_NAMES) {
              const counter = counterFor(encoding);
              let mismatches = 0;
              for (const line of lines) if (counter.count(line) !== counter.countDirect(line)) mismatches += 1;
              expect(mismatches, `${file} ${encoding}`).toBe(0);
            }
          }
        },
        60_000,
      );
    }
  });
  reportSharedDataSkip(it.skip);
});
