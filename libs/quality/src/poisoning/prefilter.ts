import { isHiddenCode } from './hidden-text';
import type { PhraseRule } from './phrase-match';

/**
 * Markers that send a field to the full scan whatever the phrase rules say: an HTML comment
 * (`HIDDEN_MARKUP`), a link (`URL_HOST`), a namespaced tool name (`OTHER_SERVER_TOOL`).
 */
const MARKERS = ['<!--', '://', 'www.', '__'];
/** Blank runs at which `markupFindings` starts looking for padding (see `scan-tool.ts`). */
const PADDING_SPACES = 200;
const PADDING_NEWLINES = 20;

/**
 * A cheap first look at a field that proves most clean text clean, so the full scan (normalising
 * into typed arrays, the phrase automaton with word boundaries, offsets, hidden-text, markup, link
 * and reference scans) runs only where a finding is possible.
 *
 * One pass over the raw string, no allocation: ASCII text is folded on the fly exactly as
 * `normalizeForMatching` folds it (lower case, runs of white space to one space) and fed to an
 * Aho–Corasick automaton of every ASCII spelling of every rule term, without word-boundary checks.
 * Each spelling marks the term groups it belongs to; the field is clean when no rule has all its
 * required groups present (order and gaps are ignored, so this only ever says "maybe" more often
 * than the full scan finds something, never less). Text with any character outside ASCII — where
 * hidden characters, full-width forms, homoglyphs and the Japanese and Chinese rules live — always
 * goes to the full scan, as does a marker or a long blank run.
 */
export class FieldPrefilter {
  /** Complete ASCII transitions, failure links folded in: `next[state * 128 + code]`. */
  readonly #next: Int32Array;
  /** Per state, the groups its spellings (and those of its failure chain) belong to. */
  readonly #groups: readonly (readonly number[])[];
  /** Per state, 1 when it has groups: the hot loop reads one byte, not an array. */
  readonly #hasGroups: Uint8Array;
  /** Group id of the markers: seeing it means "full scan". */
  readonly #markerGroup: number;
  /** Per rule, the groups that must all be present (optional terms left out). */
  readonly #required: readonly (readonly number[])[];
  /** Scratch: which groups were seen in the current field (reset per field). */
  readonly #seen: Uint8Array;

  constructor(rules: readonly PhraseRule[]) {
    const groupIds = new Map<string, number>();
    const groupOf = (spellings: readonly string[]): number => {
      const key = [...spellings].sort().join('\u0000');
      let id = groupIds.get(key);
      if (id === undefined) groupIds.set(key, (id = groupIds.size));
      return id;
    };
    const spellingGroups = new Map<string, Set<number>>();
    const addSpelling = (spelling: string, group: number): void => {
      let set = spellingGroups.get(spelling);
      if (set === undefined) spellingGroups.set(spelling, (set = new Set()));
      set.add(group);
    };
    this.#required = rules.map((rule) =>
      rule.terms
        .filter((spellings) => !spellings.includes(''))
        .map((spellings) => {
          const group = groupOf(spellings);
          for (const spelling of spellings) {
            if (isAscii(spelling)) addSpelling(spelling, group);
            else if (
              ![...spelling].every((char) => (char.codePointAt(0) ?? 0) >= SCRIPTS_WITH_RULES || char < '\u0080')
            )
              // foldWide lets such characters through as "a letter no spelling has": keep it true.
              throw new Error(`phrase spelling '${spelling}' mixes ASCII with characters below U+2E80`);
          }
          return group;
        }),
    );
    this.#markerGroup = groupIds.size;
    for (const marker of MARKERS) addSpelling(marker, this.#markerGroup);
    this.#seen = new Uint8Array(this.#markerGroup + 1);
    const built = buildAutomaton(spellingGroups);
    this.#next = built.next;
    this.#groups = built.groups;
    this.#hasGroups = Uint8Array.from(built.groups, (list) => (list.length > 0 ? 1 : 0));
  }

  /** Whether the full scan could find anything in the first `limit` characters of a (non-name) field. */
  needsFullScan(text: string, limit: number): boolean {
    const next = this.#next;
    const hasGroups = this.#hasGroups;
    let state = 0;
    let any = false;
    let blank = 0;
    let newlines = 0;
    const end = Math.min(text.length, limit);
    for (let index = 0; index < end; index += 1) {
      let code = text.charCodeAt(index);
      // Upper case and white space are folded by the table itself; only blank runs and
      // characters outside ASCII take a branch here.
      if (code <= 0x20) {
        if (code === 0x20 || (code >= 0x09 && code <= 0x0d)) {
          if (++blank >= PADDING_SPACES || (code === 0x0a && ++newlines >= PADDING_NEWLINES)) return true;
        } else blank = newlines = 0;
      } else if (code >= 0x80) {
        code = foldWide(code);
        if (code < 0) return true;
        if (code !== 0x20) blank = newlines = 0;
        else if (++blank >= PADDING_SPACES) return true;
      } else blank = newlines = 0;
      state = next[(state << 7) | code] as number;
      if (hasGroups[state] === 0) continue;
      if (!any) {
        this.#seen.fill(0);
        any = true;
      }
      if (this.#mark(state)) return true;
    }
    if (!any) return false;
    const seen = this.#seen;
    for (const groupsOfRule of this.#required) {
      let all = groupsOfRule.length > 0;
      for (const group of groupsOfRule) if (seen[group] === 0) all = false;
      if (all) return true;
    }
    return false;
  }

  /** Notes the groups of a state; true when one of them is the markers'. */
  #mark(state: number): boolean {
    for (const group of this.#groups[state] ?? []) {
      if (group === this.#markerGroup) return true;
      (this.#seen as Uint8Array)[group] = 1;
    }
    return false;
  }
}

/** Below this, a non-ASCII character is never part of a rule's spelling (checked when built). */
const SCRIPTS_WITH_RULES = 0x2e80;

/**
 * What a character outside ASCII is to the prefilter, as `normalizeForMatching` would fold it:
 * -1 when only the full scan can judge it (a hidden or default-ignorable character, a surrogate —
 * tag characters, emoji —, a full-width form, CJK and the scripts of the Japanese and Chinese
 * rules), a space for the spaces the normaliser collapses, an apostrophe for curly ones, and
 * otherwise 0x7f: a letter like `é` that no ASCII spelling contains, so it ends any match in
 * progress exactly as it does in the full scan.
 */
function foldWide(code: number): number {
  if (code >= SCRIPTS_WITH_RULES || (code >= 0xd800 && code <= 0xdfff)) return -1;
  if (code >= 0xad && isHiddenCode(code)) return -1;
  if (code === 0xa0 || code === 0x2028) return 0x20;
  if (code === 0x2018 || code === 0x2019) return 0x27;
  return 0x7f;
}

function isAscii(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) >= 0x80) return false;
  return true;
}

/** The standard Aho–Corasick construction over ASCII, as a complete transition table. */
function buildAutomaton(spellings: ReadonlyMap<string, ReadonlySet<number>>): {
  next: Int32Array;
  groups: number[][];
} {
  const trie: Map<number, number>[] = [new Map()];
  const groups: Set<number>[] = [new Set()];
  for (const [spelling, ofSpelling] of spellings) {
    let state = 0;
    for (let index = 0; index < spelling.length; index += 1) {
      const code = spelling.charCodeAt(index);
      let target = trie[state]?.get(code);
      if (target === undefined) {
        target = trie.push(new Map()) - 1;
        groups.push(new Set());
        trie[state]?.set(code, target);
      }
      state = target;
    }
    for (const group of ofSpelling) groups[state]?.add(group);
  }
  const fail = new Int32Array(trie.length);
  const enteredBySpace = new Uint8Array(trie.length);
  trie.forEach((edges) => edges.forEach((target, code) => (enteredBySpace[target] = code === 0x20 ? 1 : 0)));
  const next = new Int32Array(trie.length * 128);
  const order: number[] = [0];
  for (let head = 0; head < order.length; head += 1) {
    const state = order[head] as number;
    for (let code = 0; code < 128; code += 1) {
      const direct = trie[state]?.get(code);
      const fallback = state === 0 ? 0 : (next[(fail[state] as number) * 128 + code] as number);
      if (direct === undefined) {
        next[state * 128 + code] = fallback;
        continue;
      }
      next[state * 128 + code] = direct;
      fail[direct] = state === 0 ? 0 : fallback;
      for (const group of groups[fail[direct] as number] ?? []) groups[direct]?.add(group);
      order.push(direct);
    }
  }
  // The normaliser turns a run of white space into one space; looping on further spaces in every
  // state entered by a space reads a raw run the same way, with no branch in the hot loop. (A
  // space at the very start is read, where the normaliser drops it: that can only add matches.)
  for (let state = 1; state < trie.length; state += 1)
    if (enteredBySpace[state] === 1) next[state * 128 + 0x20] = state;
  // Folding in the table: upper case reads as lower case, 0x09–0x0d as a space (spellings are
  // normalised text, so neither appears in them).
  for (let state = 0; state < trie.length; state += 1) {
    const row = state * 128;
    for (let code = 0x41; code <= 0x5a; code += 1) next[row + code] = next[row + code + 32] as number;
    for (let code = 0x09; code <= 0x0d; code += 1) next[row + code] = next[row + 0x20] as number;
  }
  return { next, groups: groups.map((set) => [...set]) };
}
