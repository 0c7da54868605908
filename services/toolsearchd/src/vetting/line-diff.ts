/** Cells of the LCS table past which a diff shows the whole old and new text instead. */
const MAX_CELLS = 4_000_000;

/**
 * A line diff (`- `, `+ `, `  ` prefixed) by longest common subsequence: enough for an operator
 * to read what changed in a tool definition. Quadratic, so bounded: past `MAX_CELLS` the old
 * lines are all removed and the new ones all added.
 */
export function lineDiff(before: string, after: string): string[] {
  const a = before === '' ? [] : before.split('\n');
  const b = after.split('\n');
  if (a.length * b.length > MAX_CELLS) return [...a.map((line) => `- ${line}`), ...b.map((line) => `+ ${line}`)];
  const width = b.length + 1;
  const table = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      table[i * width + j] =
        a[i] === b[j]
          ? (table[(i + 1) * width + j + 1] as number) + 1
          : Math.max(table[(i + 1) * width + j] as number, table[i * width + j + 1] as number);
  const out: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      out.push(`  ${a[i]}`);
      i += 1;
      j += 1;
    } else if (
      j < b.length &&
      (i >= a.length || (table[i * width + j + 1] as number) >= (table[(i + 1) * width + j] as number))
    ) {
      out.push(`+ ${b[j]}`);
      j += 1;
    } else {
      out.push(`- ${a[i]}`);
      i += 1;
    }
  }
  return out;
}
