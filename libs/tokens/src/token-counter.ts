import type { Tiktoken, get_encoding as GetEncoding } from 'tiktoken';
import { countLongPiece } from './bpe-heap';
import { bpeTokenCount, RankTable } from './bpe-ranks';
import { characterKinds, nativeModule, provideAstralKinds, requireModule, type NativeHandle } from './native-counter';
export { nativeTokenCounting } from './native-counter';

/** The encodings a session may name. o200k_base is the default (GPT-4o and later). */
export const ENCODINGS = ['o200k_base', 'cl100k_base'] as const;
export type EncodingName = (typeof ENCODINGS)[number];
export const DEFAULT_ENCODING: EncodingName = 'o200k_base';

export function isEncodingName(value: unknown): value is EncodingName {
  return typeof value === 'string' && (ENCODINGS as readonly string[]).includes(value);
}

// The pre-tokenisation patterns of the two encodings, as tiktoken defines them. JavaScript has no
// inline `(?i:...)` group on Node 20, so the contraction suffixes are spelled out case by case.
const CONTRACTIONS = "'(?:[sS]|[tT]|[rR][eE]|[vV][eE]|[mM]|[lL][lL]|[dD])";
// tiktoken's `\s` is Unicode White_Space (U+0085 is one, U+FEFF is not); JavaScript's differs.
const WS = '\\p{White_Space}';
const PATTERNS: Record<EncodingName, RegExp> = {
  o200k_base: new RegExp(
    [
      `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?:${CONTRACTIONS})?`,
      `[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*(?:${CONTRACTIONS})?`,
      `\\p{N}{1,3}`,
      ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n/]*`,
      `[${WS}]*[\\r\\n]+`,
      `[${WS}]+(?![^${WS}])`,
      `[${WS}]+`,
    ].join('|'),
    'gu',
  ),
  cl100k_base: new RegExp(
    [
      CONTRACTIONS,
      `[^\\r\\n\\p{L}\\p{N}]?\\p{L}+`,
      `\\p{N}{1,3}`,
      ` ?[^${WS}\\p{L}\\p{N}]+[\\r\\n]*`,
      `[${WS}]*[\\r\\n]+`,
      `[${WS}]+(?![^${WS}])`,
      `[${WS}]+`,
    ].join('|'),
    'gu',
  ),
};

/** Beyond this many cached pieces (or chunks) the cache starts over, so memory stays bounded. */
const MAX_CACHED_PIECES = 250_000;
/**
 * Pieces longer than this (in bytes) are merged with a heap (`countLongPiece`): the plain merge,
 * like tiktoken's own encoder, is quadratic in the piece's length.
 */
const LONG_PIECE_BYTES = 96;
// eslint-disable-next-line no-control-regex -- "every character is ASCII" includes control characters
const ASCII = /^[\x00-\x7f]*$/;

/** Pieces up to this long are first looked up whole in the rank table (longer ones are rarely a token). */
const MAX_DIRECT_PIECE = 16;
/** Text pieces between two chunk boundaries longer than this are not cached as a whole. */
const MAX_CACHED_CHUNK = 256;
/** Beyond this many characters of cached chunks or pieces (about 8 MB each) a cache starts over. */
const MAX_CACHED_CHARS = 4_000_000;

function isAsciiAlphanumeric(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
}

/**
 * Whether a piece boundary is certain at `at`, whatever precedes or follows: a double quote right
 * after an ASCII letter or digit. Every alternative of both patterns that can hold a letter or a
 * digit ends at the first character that is not a letter, mark or digit (a contraction needs an
 * apostrophe), and no alternative can reach back across it. JSON is full of such places, so a
 * schema splits into short chunks (`":{"type`, `","description`) that repeat from tool to tool.
 */
function chunkBoundary(text: string, at: number): boolean {
  return isAsciiAlphanumeric(text.charCodeAt(at - 1));
}

/**
 * Whether a piece boundary is certain at `at`, right after a line break: when the next character
 * is an ASCII letter, digit or `-`. Every alternative of both patterns that can hold a line break
 * ends at the first character that is not white space, `\r`, `\n` or `/`, and the line-break
 * alternative comes before both alternatives with a lookahead, so no piece reaches across.
 * Listings are made of lines, and a line counted once is then a single cache lookup.
 */
function lineBoundary(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  return isAsciiAlphanumeric(c) || c === 0x2d;
}

const FINISHED_BATCH = 'this count batch is finished: start a new one with batch()';

/** Texts counted while their producer goes on; see `TokenCounter.batch`. */
export interface CountBatch {
  add(text: string): void;
  /** The counts of every text added, in order; waits for the counting to end. */
  finish(): number[];
}

/**
 * Token counts of texts, bounded: it starts over beyond `MAX_CACHED_PIECES` entries or
 * `MAX_CACHED_CHARS` characters of keys, so memory stays bounded whatever the input.
 */
class CountCache {
  readonly #counts = new Map<string, number>();
  #chars = 0;

  get(text: string): number | undefined {
    return this.#counts.get(text);
  }

  set(text: string, tokens: number): void {
    if (this.#counts.size >= MAX_CACHED_PIECES || this.#chars >= MAX_CACHED_CHARS) {
      this.#counts.clear();
      this.#chars = 0;
    }
    this.#counts.set(text, tokens);
    this.#chars += text.length;
  }
}

/**
 * Counts tokens exactly as tiktoken's `encode_ordinary` would, and fast on repetitive text such as
 * JSON schemas. tiktoken splits text into pieces with a fixed pattern and byte-pair encodes each
 * piece on its own, so a text's count is the sum of its pieces' counts. (One exception: a single
 * piece over 64 KiB, which no text has, is counted in windows — see `countLongPiece`.)
 *
 * When the native counter is built, it counts as much of a text as it can decide alone (see
 * native/counter.cc) and this class counts the rest. The JavaScript path splits with the same
 * pattern, remembers the count of every piece it has seen, and encodes a new piece with tiktoken's
 * own merge ranks (long pieces with a heap, not tiktoken's quadratic merge). On top of that it cuts
 * a text into chunks at places where a piece boundary is certain (see `chunkBoundary` and `lineBoundary`) and
 * remembers the count of every short chunk, so the pattern runs only over chunks it has not seen.
 * Tests check both paths against `encode_ordinary` on tricky strings, seeded random Unicode text
 * and every tool of the public catalogs.
 */
export class TokenCounter {
  readonly encoding: EncodingName;
  readonly #ranks: RankTable;
  #encoder: Tiktoken | undefined;
  readonly #pattern: RegExp;
  readonly #pieces = new CountCache();
  readonly #chunks = new CountCache();
  readonly #native: NativeHandle | undefined;
  // [tokens, where the native counter stopped, the astral block of kinds it needed there or -1]
  readonly #nativeOut = new Int32Array(3);

  /** `native: false` keeps to the JavaScript path even when the native counter is built. */
  constructor(encoding: EncodingName, ranks: RankTable, options: { native?: boolean } = {}) {
    this.encoding = encoding;
    this.#ranks = ranks;
    this.#pattern = new RegExp(PATTERNS[encoding].source, PATTERNS[encoding].flags);
    if (nativeModule !== undefined && options.native !== false)
      this.#native = nativeModule.createCounter(
        ranks.bytes,
        ranks.starts,
        ranks.ranks,
        encoding === 'cl100k_base',
        characterKinds(),
      );
  }

  /** Whether counts come from the native counter (with this class's JavaScript path for the rest). */
  get native(): boolean {
    return this.#native !== undefined;
  }

  /** The exact token count of `text`. Special-token text such as `<|endoftext|>` counts as plain text. */
  count(text: string): number {
    if (this.#native === undefined || nativeModule === undefined) return this.#countText(text);
    const out = this.#nativeOut;
    nativeModule.count(this.#native, text, out);
    return this.#withRest(text, out[0] as number, out[1] as number, out[2] as number);
  }

  /**
   * A native count of `text` that covered `tokens` tokens up to `stop`, plus the rest. Where the
   * native counter stops is a piece boundary, so the rest counts on its own: natively again once
   * the astral block of character kinds it stopped for is handed over, else in JavaScript.
   */
  #withRest(text: string, tokens: number, stop: number, missingBlock: number): number {
    if (stop === text.length) return tokens;
    const rest = stop === 0 ? text : text.slice(stop);
    if (nativeModule !== undefined && provideAstralKinds(nativeModule, missingBlock)) return tokens + this.count(rest);
    return tokens + this.#countText(rest);
  }

  /**
   * A batch: texts handed over with `add` are counted while the caller goes on (on a second thread
   * with the native counter; at `finish` otherwise), and `finish` returns their exact counts in
   * order. Call `finish` also when giving up on a batch (in a `finally`): it waits for the worker.
   */
  batch(): CountBatch {
    const native = this.#native === undefined ? undefined : nativeModule;
    const pending = native === undefined || this.#native === undefined ? undefined : native.beginBatch(this.#native);
    const texts: string[] = [];
    let counts: number[] | undefined;
    return {
      add: (text) => {
        if (counts !== undefined) throw new Error(FINISHED_BATCH);
        if (pending !== undefined) native?.pushBatch(pending, text);
        texts.push(text);
      },
      finish: () => {
        if (counts !== undefined) return counts;
        if (pending === undefined || native === undefined) {
          counts = texts.map((text) => this.count(text));
        } else {
          const results = native.finishBatch(pending);
          counts = texts.map((text, index) =>
            this.#withRest(
              text,
              results[3 * index] as number,
              results[3 * index + 1] as number,
              results[3 * index + 2] as number,
            ),
          );
        }
        return counts;
      },
    };
  }

  /** The exact token count of each text, in order (counted as a batch: see `batch`). */
  countEach(texts: Iterable<string>): number[] {
    const batch = this.batch();
    try {
      for (const text of texts) batch.add(text);
    } finally {
      batch.finish();
    }
    return batch.finish();
  }

  #countText(text: string): number {
    let total = 0;
    let start = 0;
    let quote = text.indexOf('"', 1);
    let newline = text.indexOf('\n');
    while (quote > 0 || newline >= 0) {
      let at: number;
      if (newline >= 0 && (quote <= 0 || newline < quote)) {
        at = newline + 1;
        newline = text.indexOf('\n', at);
        if (!lineBoundary(text, at)) continue;
      } else {
        at = quote;
        quote = text.indexOf('"', quote + 1);
        if (!chunkBoundary(text, at)) continue;
      }
      total += this.#countChunk(text.slice(start, at));
      start = at;
    }
    return total + this.#countChunk(start === 0 ? text : text.slice(start));
  }

  #countChunk(chunk: string): number {
    if (chunk.length > MAX_CACHED_CHUNK) return this.#countPieces(chunk);
    let tokens = this.#chunks.get(chunk);
    if (tokens === undefined) {
      tokens = this.#countPieces(chunk);
      this.#chunks.set(chunk, tokens);
    }
    return tokens;
  }

  #countPieces(text: string): number {
    if (text.length === 0) return 0;
    let total = 0;
    const pattern = this.#pattern;
    const pieces = this.#pieces;
    const ranks = this.#ranks;
    pattern.lastIndex = 0;
    // `test` moves lastIndex without building a match object per piece (much less garbage).
    for (let start = 0; pattern.test(text); start = pattern.lastIndex) {
      const end = pattern.lastIndex;
      // Most pieces (` the`, `":"`, `string`) are a token of their own: one lookup in the rank
      // table, straight from the text, instead of cutting the piece out and looking it up.
      if (end - start <= MAX_DIRECT_PIECE && ranks.asciiRank(text, start, end) >= 0) {
        total += 1;
        continue;
      }
      const piece = text.slice(start, end);
      let tokens = pieces.get(piece);
      if (tokens === undefined) {
        tokens = this.#countPiece(piece);
        // Long pieces (a run of letters in a pasted blob) are cached too: recounting them is the
        // slowest case there is, and the cache's character budget bounds what they hold.
        pieces.set(piece, tokens);
      }
      total += tokens;
    }
    return total;
  }

  /** The count straight from tiktoken's WASM encoder, without the piece cache (for verification). */
  countDirect(text: string): number {
    return this.#wasm().encode_ordinary(text).length;
  }

  #countPiece(piece: string): number {
    const bytes = ASCII.test(piece) ? piece : Buffer.from(piece, 'utf8').toString('latin1');
    if (bytes.length > LONG_PIECE_BYTES) return countLongPiece(bytes, this.#ranks);
    return bpeTokenCount(bytes, this.#ranks);
  }

  // Loaded on first need (about 0.3 s and 20 MB) and kept for the life of the process; never freed.
  #wasm(): Tiktoken {
    if (this.#encoder === undefined) {
      const { get_encoding } = requireModule('tiktoken') as { get_encoding: typeof GetEncoding };
      this.#encoder = get_encoding(this.encoding);
    }
    return this.#encoder;
  }
}

const counters = new Map<EncodingName, TokenCounter>();
let nativeWanted = true;

/**
 * Whether the process-wide counters made from now on may use the native counter (they do when it
 * is built, unless this turned it off). A counter already made keeps its path. For measuring the
 * JavaScript path, or working around the native one without reinstalling.
 */
export function useNativeTokenCounting(enabled: boolean): void {
  nativeWanted = enabled;
}

/**
 * The process-wide counter for an encoding. Its rank table is loaded once (about 0.1 s for
 * o200k_base) and kept for the life of the process.
 */
export function tokenCounter(encoding: EncodingName = DEFAULT_ENCODING): TokenCounter {
  let counter = counters.get(encoding);
  if (counter === undefined) {
    counter = new TokenCounter(encoding, RankTable.load(encoding), { native: nativeWanted });
    counters.set(encoding, counter);
  }
  return counter;
}

/** Shorthand for `tokenCounter(encoding).count(text)`. */
export function countTokens(text: string, encoding: EncodingName = DEFAULT_ENCODING): number {
  return tokenCounter(encoding).count(text);
}
