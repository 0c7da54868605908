import type { PoisonFinding } from './poison-codes';
import { formatPath, visitTextFields, type FieldPath, type ScannableTool } from './text-fields';

/**
 * A copy of a definition with the text of the given findings cut out of their fields (overlapping
 * spans merged), for a tenant whose policy is `strip`: the tool stays usable, the offending text
 * never reaches the model. Findings in names (the tool's or a parameter's) cannot be cut without
 * breaking calls: those are returned in `unstrippable` for the caller to withhold the tool.
 */
export function stripFindings<T extends ScannableTool>(
  tool: T,
  findings: readonly PoisonFinding[],
): { tool: T; unstrippable: PoisonFinding[] } {
  const byField = new Map<string, PoisonFinding[]>();
  for (const finding of findings) byField.set(finding.field, [...(byField.get(finding.field) ?? []), finding]);
  const edits: { path: (string | number)[]; text: string }[] = [];
  const unstrippable: PoisonFinding[] = [];
  visitTextFields(tool, (text, kind, path) => {
    if (byField.size === 0) return;
    const field = formatPath(path);
    const found = byField.get(field);
    if (found === undefined) return;
    byField.delete(field);
    if (kind === 'name') unstrippable.push(...found);
    else edits.push({ path: [...path], text: cutSpans(text, found) });
  });
  if (edits.length === 0) return { tool, unstrippable };
  const copy = structuredClone(tool);
  for (const edit of edits) setAt(copy, edit.path, edit.text);
  return { tool: copy, unstrippable };
}

function cutSpans(text: string, findings: readonly PoisonFinding[]): string {
  const spans = findings.map((item) => ({ ...item.span })).sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const span of spans) {
    if (span.end <= at) continue;
    out += text.slice(at, Math.max(at, span.start));
    at = Math.max(at, span.end);
  }
  return (out + text.slice(at)).replace(/ {2,}/g, ' ').trim();
}

function setAt(root: unknown, path: FieldPath, value: string): void {
  let node = root as Record<string | number, unknown>;
  for (let index = 0; index < path.length - 1; index += 1) {
    const next = node[path[index] as string | number];
    if (typeof next !== 'object' || next === null) return;
    node = next as Record<string | number, unknown>;
  }
  node[path[path.length - 1] as string | number] = value;
}
