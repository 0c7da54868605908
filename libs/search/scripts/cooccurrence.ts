import type { PARAMS } from './association-params';

/**
 * Pairs of tool words that occur in the same tool texts far more often than chance, scored by
 * normalised PMI (−1…1): `npmi = log(p(a,b) / (p(a) p(b))) / −log p(a,b)`. Only words of middling
 * frequency take part (rare ones give noise, common ones no signal). Symmetric; each word keeps
 * its `perTerm` strongest partners.
 */
export function cooccurrenceAssociations(
  documents: readonly (readonly string[])[],
  df: ReadonlyMap<string, number>,
  params: (typeof PARAMS)['cooccurrence'],
): { from: string; to: string; weight: number }[] {
  const n = documents.length;
  const ids = new Map<string, number>();
  const names: string[] = [];
  for (const [term, count] of df) {
    if (count >= params.minDocs && count / n <= params.maxDocShare) {
      ids.set(term, names.length);
      names.push(term);
    }
  }
  const stride = names.length;
  const pairs = new Map<number, number>();
  for (const terms of documents) {
    const present = terms.map((term) => ids.get(term)).filter((id): id is number => id !== undefined);
    present.sort((a, b) => a - b);
    for (let i = 0; i < present.length; i += 1)
      for (let j = i + 1; j < present.length; j += 1) {
        const key = (present[i] as number) * stride + (present[j] as number);
        pairs.set(key, (pairs.get(key) ?? 0) + 1);
      }
  }
  const best = new Map<string, { to: string; npmi: number }[]>();
  const note = (from: string, to: string, npmi: number) => {
    const row = best.get(from) ?? [];
    row.push({ to, npmi });
    best.set(from, row);
  };
  for (const [key, together] of pairs) {
    if (together < params.minPairDocs) continue;
    const a = names[Math.floor(key / stride)] as string;
    const b = names[key % stride] as string;
    const pab = together / n;
    const pa = (df.get(a) ?? 1) / n;
    const pb = (df.get(b) ?? 1) / n;
    const npmi = Math.log(pab / (pa * pb)) / -Math.log(pab);
    if (npmi < params.minNpmi) continue;
    note(a, b, npmi);
    note(b, a, npmi);
  }
  const out: { from: string; to: string; weight: number }[] = [];
  for (const [from, row] of best) {
    row.sort((x, y) => y.npmi - x.npmi || (x.to < y.to ? -1 : 1));
    for (const { to, npmi } of row.slice(0, params.perTerm)) out.push({ from, to, weight: params.weight * npmi });
  }
  return out;
}
