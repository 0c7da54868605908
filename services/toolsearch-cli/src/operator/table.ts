/**
 * An aligned text table: a header row, then one row per item; columns as wide as their widest
 * cell, two spaces apart; the last column is not padded. Cells are flattened to one line.
 */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const clean = (cell: string) => cell.replace(/[\r\n\t]+/g, ' ');
  const all = [headers, ...rows].map((row) => row.map(clean));
  const widths = headers.map((_, column) => Math.max(...all.map((row) => [...(row[column] ?? '')].length)));
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : cell.padEnd(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  return `${all.map(line).join('\n')}\n`;
}

/** A compact local date-time (UTC) for tables: 2026-12-02 23:40:05. */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 19);
}

/** `name: value` lines with the names aligned. */
export function formatFields(fields: readonly (readonly [string, string])[]): string {
  const width = Math.max(...fields.map(([name]) => name.length));
  return `${fields.map(([name, value]) => `${`${name}:`.padEnd(width + 2)}${value}`).join('\n')}\n`;
}
