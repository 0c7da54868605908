import type { PoisonCode } from './poison-codes';
import type { NormalizedText } from './normalize';

/**
 * A phrase rule: terms that must appear in order, each one of several spellings, with at most
 * `gap` characters between one term's end and the next one's start. An empty spelling makes a
 * term optional.
 */
export interface PhraseRule {
  readonly code: PoisonCode;
  readonly terms: readonly (readonly string[])[];
  readonly gap: number;
  /** What the rule is about, in a few words. */
  readonly why: string;
}

/** A match in normalized text: start of the first term, end of the last (exclusive). */
export interface PhraseMatch {
  readonly start: number;
  readonly end: number;
}

/** Occurrences kept per spelling and field: plenty for real text, bounded for hostile text. */
const MAX_OCCURRENCES = 256;
/** Matches reported per rule and field. */
const MAX_MATCHES = 4;

function isWordCode(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39);
}

/** A rule with its spellings replaced by ids in the automaton. */
interface CompiledRule {
  readonly rule: PhraseRule;
  readonly terms: readonly number[][];
  readonly optional: readonly boolean[];
}

/**
 * Every spelling of every rule in one Aho–Corasick automaton, so a field is read once whatever
 * the number of phrases: time linear in the text plus the occurrences found, no backtracking.
 */
export class PhraseSet {
  readonly #spellings: string[] = [];
  readonly #ids = new Map<string, number>();
  readonly #next: Map<number, number>[] = [new Map()];
  readonly #fail: number[] = [0];
  /** Spelling ids that end at each state (its own and those of its failure chain). */
  readonly #out: number[][] = [[]];
  readonly #rules: CompiledRule[];
  /** Complete transitions for ASCII input: `#ascii[state * 128 + code]`, failure links folded in. */
  #ascii = new Int32Array(0);
  /** For each spelling id, the rules whose first term it spells: only those are tried. */
  readonly #rulesByFirst = new Map<number, number[]>();

  constructor(rules: readonly PhraseRule[]) {
    this.#rules = rules.map((rule) => ({
      rule,
      terms: rule.terms.map((spellings) => spellings.filter((term) => term !== '').map((term) => this.#add(term))),
      optional: rule.terms.map((spellings) => spellings.includes('')),
    }));
    this.#rules.forEach(({ terms }, index) => {
      for (const id of terms[0] ?? []) {
        const list = this.#rulesByFirst.get(id);
        if (list === undefined) this.#rulesByFirst.set(id, [index]);
        else if (!list.includes(index)) list.push(index);
      }
    });
    this.#link();
  }

  #add(term: string): number {
    const known = this.#ids.get(term);
    if (known !== undefined) return known;
    const id = this.#spellings.push(term) - 1;
    this.#ids.set(term, id);
    let state = 0;
    for (let index = 0; index < term.length; index += 1) {
      const code = term.charCodeAt(index);
      let target = this.#next[state]?.get(code);
      if (target === undefined) {
        target = this.#next.push(new Map()) - 1;
        this.#fail.push(0);
        this.#out.push([]);
        this.#next[state]?.set(code, target);
      }
      state = target;
    }
    this.#out[state]?.push(id);
    return id;
  }

  /** Breadth-first failure links, the standard construction, then the ASCII table. */
  #link(): void {
    const queue: number[] = [0, ...(this.#next[0]?.values() ?? [])];
    for (let head = 1; head < queue.length; head += 1) {
      const state = queue[head] as number;
      for (const [code, target] of this.#next[state] ?? []) {
        let fallback = this.#fail[state] ?? 0;
        while (fallback !== 0 && !this.#next[fallback]?.has(code)) fallback = this.#fail[fallback] ?? 0;
        const link = this.#next[fallback]?.get(code);
        this.#fail[target] = link !== undefined && link !== target ? link : 0;
        this.#out[target]?.push(...(this.#out[this.#fail[target] ?? 0] ?? []));
        queue.push(target);
      }
    }
    // States in breadth-first order, so a state's failure target is filled in before it.
    const ascii = new Int32Array(this.#next.length * 128);
    for (const state of queue) {
      for (let code = 0; code < 128; code += 1) {
        const direct = this.#next[state]?.get(code);
        ascii[state * 128 + code] =
          direct ?? (state === 0 ? 0 : (ascii[(this.#fail[state] ?? 0) * 128 + code] as number));
      }
    }
    this.#ascii = ascii;
  }

  /** Whole-word start positions of every spelling in the text, by spelling id, in order. */
  #occurrences(text: NormalizedText): Map<number, number[]> {
    // Sparse: most fields hold none of the spellings, and a map costs nothing for those.
    const found = new Map<number, number[]>();
    const { codes, length } = text;
    // Hot loop: fields read into locals once (private field access is slower per character).
    const ascii = this.#ascii;
    const outs = this.#out;
    const spellings = this.#spellings;
    let state = 0;
    for (let index = 0; index < length; index += 1) {
      const code = codes[index] as number;
      if (code < 128) state = ascii[state * 128 + code] as number;
      else {
        while (state !== 0 && !this.#next[state]?.has(code)) state = this.#fail[state] ?? 0;
        state = this.#next[state]?.get(code) ?? 0;
      }
      const out = outs[state] as number[];
      if (out.length === 0) continue;
      for (const id of out) {
        const term = spellings[id] as string;
        const start = index - term.length + 1;
        // Latin terms match whole words only; CJK terms have no word boundaries to check.
        if (isWordCode(term.charCodeAt(0)) && start > 0 && isWordCode(codes[start - 1] as number)) continue;
        if (
          isWordCode(term.charCodeAt(term.length - 1)) &&
          index + 1 < length &&
          isWordCode(codes[index + 1] as number)
        )
          continue;
        const list = found.get(id);
        if (list === undefined) found.set(id, [start]);
        else if (list.length < MAX_OCCURRENCES) list.push(start);
      }
    }
    return found;
  }

  /** Every rule's matches in the text. */
  match(text: NormalizedText): { rule: PhraseRule; match: PhraseMatch }[] {
    const found = this.#occurrences(text);
    const results: { rule: PhraseRule; match: PhraseMatch }[] = [];
    if (found.size === 0) return results;
    const candidates = new Set<number>();
    for (const id of found.keys()) for (const index of this.#rulesByFirst.get(id) ?? []) candidates.add(index);
    for (const index of [...candidates].sort((a, b) => a - b)) {
      const { rule, terms, optional } = this.#rules[index] as CompiledRule;
      // Cheap rejection first: a required term with no occurrence at all.
      if (!terms.every((ids, term) => optional[term] === true || ids.some((id) => found.has(id)))) continue;
      const [first, ...rest] = terms;
      if (first === undefined) continue;
      const starts = first
        .flatMap((id) =>
          (found.get(id) ?? []).map((start) => ({ start, end: start + (this.#spellings[id]?.length ?? 0) })),
        )
        .sort((a, b) => a.start - b.start);
      let lastEnd = -1;
      let count = 0;
      for (const start of starts) {
        if (count >= MAX_MATCHES) break;
        if (start.start < lastEnd) continue;
        let end = start.end;
        let complete = true;
        for (let term = 0; term < rest.length && complete; term += 1) {
          const next = this.#earliest(found, rest[term] as number[], end, end + rule.gap);
          if (next !== undefined) end = next;
          else complete = optional[term + 1] === true;
        }
        if (!complete) continue;
        results.push({ rule, match: { start: start.start, end } });
        lastEnd = end;
        count += 1;
      }
    }
    return results;
  }

  /** The end of the earliest occurrence of any of `ids` starting in [from, to]. */
  #earliest(
    found: ReadonlyMap<number, number[]>,
    ids: readonly number[],
    from: number,
    to: number,
  ): number | undefined {
    let bestStart = Infinity;
    let bestEnd: number | undefined;
    for (const id of ids) {
      const list = found.get(id);
      if (list === undefined) continue;
      // Binary search for the first start ≥ from.
      let low = 0;
      let high = list.length;
      while (low < high) {
        const middle = (low + high) >>> 1;
        if ((list[middle] as number) < from) low = middle + 1;
        else high = middle;
      }
      const start = list[low];
      if (start !== undefined && start <= to && start < bestStart) {
        bestStart = start;
        bestEnd = start + (this.#spellings[id]?.length ?? 0);
      }
    }
    return bestEnd;
  }
}
