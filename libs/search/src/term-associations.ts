import { TERM_ASSOCIATIONS_TEXT } from './generated/term-associations';

/** A learned association of a query term with a tool-side term. */
export interface TermAssociation {
  /** The associated index term (a Snowball stem or a CJK bigram). */
  readonly term: string;
  /** Expansion weight relative to the query word itself, in (0, 1). */
  readonly weight: number;
}

/** What the learned table knows of one query term. */
export interface LearnedTerm {
  /** Weight of the term itself in a request (term necessity; 1 when not learned). */
  readonly weight: number;
  readonly associations: readonly TermAssociation[];
  /**
   * Tool words that requests saying this word were served by (learned from request / tool pairs;
   * `+term:weight` in the table): expanded for every request word, not only for weak ones.
   */
  readonly related: readonly TermAssociation[];
}

let table: Map<string, LearnedTerm> | undefined;
/** One empty list for every term without associations or related words (most have one kind only). */
const NONE: readonly TermAssociation[] = Object.freeze([]);
const UNKNOWN: LearnedTerm = { weight: 1, associations: NONE, related: NONE };

/**
 * Parses the learned table (`generated/term-associations.ts`, written by
 * `libs/search/scripts/learn-associations.ts`) once, on first use.
 */
export function parseAssociations(text: string): Map<string, LearnedTerm> {
  const parsed = new Map<string, LearnedTerm>();
  // Target words repeat across lines ("weather" is related to many): one string each.
  const words = new Map<string, string>();
  const word = (term: string): string => words.get(term) ?? (words.set(term, term), term);
  for (const line of text.split('\n')) {
    const [from, ...entries] = line.split(' ');
    if (from === undefined || from === '') continue;
    const row: TermAssociation[] = [];
    const related: TermAssociation[] = [];
    let own = 1;
    for (const entry of entries) {
      if (entry.startsWith('=')) {
        const weight = Number(entry.slice(1)) / 100;
        if (weight > 0 && weight <= 1) own = weight;
        continue;
      }
      const isRelated = entry.startsWith('+');
      const body = isRelated ? entry.slice(1) : entry;
      const colon = body.lastIndexOf(':');
      const weight = Number(body.slice(colon + 1)) / 100;
      if (colon > 0 && weight > 0 && weight < 1)
        (isRelated ? related : row).push({ term: word(body.slice(0, colon)), weight });
    }
    if (row.length > 0 || related.length > 0 || own < 1)
      parsed.set(from, {
        weight: own,
        // Tight copies: a list grown by push keeps room for 17 entries.
        associations: row.length > 0 ? row.slice() : NONE,
        related: related.length > 0 ? related.slice() : NONE,
      });
  }
  return parsed;
}

/** What the table learned of an analysed query term (weight 1 and no associations when nothing). */
export function learnedTerm(term: string): LearnedTerm {
  table ??= parseAssociations(TERM_ASSOCIATIONS_TEXT);
  return table.get(term) ?? UNKNOWN;
}
