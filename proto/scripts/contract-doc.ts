// Builds docs/contract.md from the contract itself: every subject from ENDPOINTS, EVENTS and EXEC
// (with the top-level fields of its payloads, read from the same JSON Schema that
// proto/json-schema/ publishes), and every error code with the meaning its doc comment gives.
// The page is never edited by hand, so it cannot drift from the code; a test compares the committed
// file with what this module produces.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import ts from 'typescript';
import { z } from 'zod';
import {
  CALL_ERROR_CODES,
  contractJsonSchema,
  ENDPOINTS,
  EVENTS,
  EXEC,
  SUBJECT_PREFIX,
  WIRE_ERROR_CODES,
} from '../src/index';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** Where the page is written, relative to the repository root. */
export const CONTRACT_DOC_PATH = 'docs/contract.md';

/** One error code and the meaning its doc comment gives it. */
export interface DocumentedCode {
  readonly code: string;
  readonly meaning: string;
}

/** The code tables of the page: which constant, in which file, and what the codes are for. */
const CODE_SOURCES = [
  {
    title: 'Reply errors (`WIRE_ERROR_CODES`)',
    file: 'proto/src/errors.ts',
    constant: 'WIRE_ERROR_CODES',
    codes: Object.keys(WIRE_ERROR_CODES),
    intro:
      'A refused request gets `{ ok: false, error: { code, message, details? } }` with one of these\ncodes. Clients branch on the code, never on the message.',
  },
  {
    title: 'Call errors (`CALL_ERROR_CODES`)',
    file: 'proto/src/errors.ts',
    constant: 'CALL_ERROR_CODES',
    codes: Object.keys(CALL_ERROR_CODES),
    intro:
      "A dispatched call that did not succeed carries one of these in its result envelope\n(`error.code`), besides the bridge's codes below. They are what the model reads.",
  },
  {
    title: 'Bridge errors (`BRIDGE_ERROR_CODES`, `@toolsearch/bridge`)',
    file: 'libs/bridge/src/bridge-error.ts',
    constant: 'BRIDGE_ERROR_CODES',
    // Read from the bridge's source only: proto does not depend on the bridge.
    codes: undefined,
    intro:
      'The model-facing errors of `tool_search`, `tool_describe` and `tool_call`. They appear in the\nanswers of `sessions.<s>.search` and `.describe` and in call envelopes.',
  },
] as const;

/**
 * The members of `const <constant> = { … }` in a TypeScript file, each with its doc comment as one
 * line. Throws when the constant is missing, a member has no doc comment, or (with `expected`) the
 * members differ from the constant's keys at run time, so a code cannot be added without a meaning.
 */
export function documentedCodes(file: string, constant: string, expected?: readonly string[]): DocumentedCode[] {
  const text = readFileSync(`${REPO_ROOT}${file}`, 'utf8');
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
  let literal: ts.ObjectLiteralExpression | undefined;
  const visit = (node: ts.Node): void => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === constant) {
      let init = node.initializer;
      while (init !== undefined && (ts.isAsExpression(init) || ts.isSatisfiesExpression(init))) init = init.expression;
      if (init !== undefined && ts.isObjectLiteralExpression(init)) literal = init;
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  if (literal === undefined) throw new Error(`${file}: no object literal named ${constant}`);
  const codes = literal.properties.map((property) => {
    const name = property.name !== undefined && ts.isIdentifier(property.name) ? property.name.text : undefined;
    if (name === undefined) throw new Error(`${file}: ${constant} has a member that is not a plain name`);
    const comment = (ts.getLeadingCommentRanges(text, property.getFullStart()) ?? [])
      .map((range) => text.slice(range.pos, range.end))
      .filter((raw) => raw.startsWith('/**'))
      .at(-1);
    if (comment === undefined) throw new Error(`${file}: ${constant}.${name} has no doc comment to say what it means`);
    return { code: name, meaning: oneLine(comment) };
  });
  if (expected !== undefined) {
    const found = codes.map((entry) => entry.code).join(', ');
    if (found !== expected.join(', '))
      throw new Error(`${file}: ${constant} reads as [${found}] but holds [${expected.join(', ')}]`);
  }
  return codes;
}

/** A `/** … *\/` comment as one line of text. */
function oneLine(comment: string): string {
  return comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*\s?/, '').trim())
    .filter((line) => line !== '')
    .join(' ');
}

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  const?: unknown;
};

/** A payload's top-level fields, `{ a, b? }`; `ok` is left out of replies (every reply has it). */
function fields(schema: JsonSchema, { withOk }: { withOk: boolean }): string {
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives !== undefined) return alternatives.map((item) => fields(item, { withOk })).join(' or ');
  const properties = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const names = Object.entries(properties)
    .filter(([name]) => withOk || name !== 'ok')
    .map(([name, property]) =>
      property.const !== undefined
        ? `${name}: ${JSON.stringify(property.const)}`
        : required.has(name)
          ? name
          : `${name}?`,
    );
  return names.length === 0 ? '`{}`' : `\`{ ${names.join(', ')} }\``;
}

const toSchema = (schema: z.ZodType, io: 'input' | 'output'): JsonSchema =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;

/** The subject without the common prefix, as a code span. */
const subjectCell = (template: string): string => `\`${template.slice(SUBJECT_PREFIX.length + 1)}\``;

/** Escapes what would end a table cell. */
const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function subjectsTable(): string[] {
  const published = contractJsonSchema() as {
    endpoints: Record<string, { request: JsonSchema; reply: { oneOf: JsonSchema[] } }>;
    events: Record<string, { payload: JsonSchema }>;
  };
  const rows: string[] = [];
  for (const endpoint of Object.values(ENDPOINTS)) {
    const shapes = published.endpoints[endpoint.name];
    if (shapes === undefined || shapes.reply.oneOf[0] === undefined)
      throw new Error(`no published schema for ${endpoint.name}`);
    const payload = `${fields(shapes.request, { withOk: false })} → ${fields(shapes.reply.oneOf[0], { withOk: false })}`;
    rows.push(`| ${subjectCell(endpoint.template)} | request | ${cell(payload)} | ${cell(endpoint.purpose)} |`);
  }
  for (const [name, event] of Object.entries(EVENTS)) {
    const shape = published.events[name];
    if (shape === undefined) throw new Error(`no published schema for event ${name}`);
    rows.push(
      `| ${subjectCell(event.template)} | event | ${cell(fields(shape.payload, { withOk: false }))} | ${cell(event.purpose)} |`,
    );
  }
  const exec = `${fields(toSchema(EXEC.request, 'input'), { withOk: false })} → ${fields(toSchema(EXEC.reply, 'output'), { withOk: true })}`;
  rows.push(`| ${subjectCell(EXEC.template)} | exec | ${cell(exec)} | ${cell(EXEC.purpose)} |`);
  return [
    '| subject | kind | payload (top-level fields; `?` optional) | purpose |',
    '| --- | --- | --- | --- |',
    ...rows,
  ];
}

function codeTables(): string[] {
  const lines: string[] = [];
  for (const source of CODE_SOURCES) {
    const codes = documentedCodes(source.file, source.constant, source.codes);
    lines.push(`### ${source.title}`, '', `${source.intro}\nSource: \`${source.file}\`.`, '');
    lines.push('| code | meaning |', '| --- | --- |');
    for (const { code, meaning } of codes) lines.push(`| \`${code}\` | ${cell(meaning)} |`);
    lines.push('');
  }
  return lines;
}

/** The whole page, formatted as Prettier formats the repository's Markdown. */
export async function contractMarkdown(): Promise<string> {
  const text = [
    '# The wire contract v1',
    '',
    '<!-- Generated from proto/src by `npm run generate -w @toolsearch/proto`; do not edit by hand. -->',
    '',
    `Every subject starts with \`${SUBJECT_PREFIX}.\` followed by the tenant id (1–63 characters of`,
    '`a-z`, `0-9` and `-`, not starting with `-`); the table leaves the prefix out. Each request carries the',
    'NATS header `Authorization: Bearer <credential key or session token>` ([security.md](security.md)).',
    'A reply is `{ ok: true, … }` with the fields below, or `{ ok: false, error: { code, message, details? } }`.',
    'Requests are answered by the daemon (queue group `namespace.queue`), events are published by it,',
    'and `exec` subjects are served by the owner of a toolset. Full request, reply and event schemas for',
    'other languages: [`proto/json-schema/toolsearch-v1.json`](../proto/json-schema/toolsearch-v1.json).',
    '',
    '## Subjects',
    '',
    ...subjectsTable(),
    '',
    '## Error codes',
    '',
    ...codeTables(),
  ].join('\n');
  const options = await resolveConfig(`${REPO_ROOT}${CONTRACT_DOC_PATH}`);
  return format(text, { ...options, parser: 'markdown' });
}
