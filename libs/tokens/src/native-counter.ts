import { createRequire } from 'node:module';

/**
 * The native token counter (native/counter.cc), when it was built: loading it, and the character
 * kinds it decides piece boundaries with (the Basic Multilingual Plane's once per process, astral
 * blocks when a text first needs them). `token-counter.ts` counts with it, or without it in
 * JavaScript with the same results.
 */
export const requireModule = createRequire(import.meta.url);

/** A native counter (an opaque handle owned by the native module). */
export type NativeHandle = { readonly __nativeCounter: unique symbol };

/** The native counter's interface (native/counter.cc). */
export interface NativeModule {
  createCounter(
    bytes: Uint8Array,
    starts: Int32Array,
    ranks: Int32Array,
    cl100k: boolean,
    kinds: Uint8Array,
  ): NativeHandle;
  count(handle: NativeHandle, text: string, out: Int32Array): void;
  setAstralKinds(block: number, kinds: Uint8Array): void;
  beginBatch(handle: NativeHandle): NativeBatch | undefined;
  pushBatch(batch: NativeBatch, text: string): void;
  finishBatch(batch: NativeBatch): Int32Array;
}

/** A batch being counted on the native counter's worker thread. */
type NativeBatch = { readonly __nativeBatch: unique symbol };

// Built by `npm install` (scripts/build-native.mjs) where a C++ toolchain exists; without it every
// count takes the JavaScript path, with the same results.
function loadNative(): NativeModule | undefined {
  try {
    return requireModule('../build/Release/toolsearch_tokens.node') as NativeModule;
  } catch {
    return undefined;
  }
}
export const nativeModule = loadNative();

// The character kinds the native counter decides piece boundaries with, one per UTF-16 code unit
// (native/counter.cc has the same list). Surrogates stay 0: the native counter leaves a boundary
// that depends on one to the regular expression.
const KIND_CLASSES: readonly (readonly [RegExp, number])[] = [
  [/\p{Ll}/gu, 1],
  [/[\p{Lu}\p{Lt}]/gu, 2],
  [/[\p{Lm}\p{Lo}]/gu, 3],
  [/\p{M}/gu, 4],
  [/\p{N}/gu, 5],
  [/\p{White_Space}/gu, 7],
  [/[\r\n]/gu, 6],
];
const PUNCTUATION_KIND = 8;
let kinds: Uint8Array | undefined;

/** Fills `out[i]` with the kind of the i-th character of `text`, each `width` code units long. */
function classify(text: string, width: 1 | 2, out: Uint8Array): Uint8Array {
  out.fill(PUNCTUATION_KIND);
  for (const [pattern, kind] of KIND_CLASSES)
    for (const match of text.matchAll(pattern)) out[match.index / width] = kind;
  return out;
}

/** Every code unit of the Basic Multilingual Plane classified once per process (about 30 ms). */
export function characterKinds(): Uint8Array {
  if (kinds === undefined) {
    const units: string[] = [];
    for (let unit = 0; unit < 65_536; unit += 1)
      units.push(unit >= 0xd800 && unit <= 0xdfff ? '\u0000' : String.fromCharCode(unit));
    kinds = classify(units.join(''), 1, new Uint8Array(65_536));
    kinds.fill(0, 0xd800, 0xe000);
  }
  return kinds;
}

const ASTRAL_BLOCK = 4096;
const astralBlocksGiven = new Set<number>();

/**
 * Hands the native counter the kinds of the astral code points 0x10000 + block * 4096 onwards,
 * built with the same Unicode classes as the BMP table (a few milliseconds, once per block and
 * process). False when there is nothing new to hand over (no block asked for, or given already).
 */
export function provideAstralKinds(native: NativeModule, block: number): boolean {
  if (block < 0 || astralBlocksGiven.has(block)) return false;
  const first = 0x10000 + block * ASTRAL_BLOCK;
  const points: string[] = [];
  for (let offset = 0; offset < ASTRAL_BLOCK; offset += 1) points.push(String.fromCodePoint(first + offset));
  native.setAstralKinds(block, classify(points.join(''), 2, new Uint8Array(ASTRAL_BLOCK)));
  astralBlocksGiven.add(block);
  return true;
}

/** Whether the native counter was built and loaded in this process. */
export function nativeTokenCounting(): boolean {
  return nativeModule !== undefined;
}
