import { distance } from 'fastest-levenshtein';

/** Bounds of "did you mean": a mistyped name is compared only when short enough to be a name. */
export const NAME_SUGGESTION_LIMITS = {
  maxNameLength: 128,
  /** Edits allowed: one per this many characters of the typed name, at least one, at most four. */
  charsPerEdit: 6,
  maxEdits: 4,
} as const;

/**
 * The candidate names closest to a mistyped `name` by Levenshtein distance (the same measure as the
 * search's typo matching), nearest first, then alphabetically: `filesytem__read_file` →
 * `filesystem__read_file`. Each candidate is also compared by the part after its source prefix
 * (`read_fiel` → `filesystem__read_file`). Compare folded forms (`foldName`) on both sides. Cost:
 * one distance per candidate whose length is within the allowed edits; nothing for an overlong name.
 */
export function closestNames(candidates: Iterable<string>, name: string, max = 5): string[] {
  if (name.length === 0 || name.length > NAME_SUGGESTION_LIMITS.maxNameLength) return [];
  const allowed = Math.min(
    NAME_SUGGESTION_LIMITS.maxEdits,
    Math.max(1, Math.floor(name.length / NAME_SUGGESTION_LIMITS.charsPerEdit)),
  );
  const found: { name: string; distance: number }[] = [];
  for (const candidate of candidates) {
    const separator = candidate.indexOf('__');
    const short = separator >= 0 ? candidate.slice(separator + 2) : candidate;
    let best = allowed + 1;
    for (const form of short === candidate ? [candidate] : [candidate, short]) {
      if (Math.abs(form.length - name.length) > allowed) continue;
      best = Math.min(best, distance(form, name));
    }
    if (best <= allowed) found.push({ name: candidate, distance: best });
  }
  return found
    .sort((a, b) => a.distance - b.distance || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, max)
    .map((entry) => entry.name);
}
