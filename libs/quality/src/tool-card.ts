import type { Risk, SessionTool } from '@toolsearch/catalog';

/** One argument as a card shows it. */
export interface CardArgument {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string | null;
  readonly example: unknown;
}

/** Where a card's risk level comes from. */
export type RiskBasis = 'declared' | 'destructiveHint' | 'readOnlyHint' | 'default';

/**
 * The five answers seed 002 asks of every tool: what it does, when to use it (and not), which
 * arguments it needs, what it returns, and how risky it is; plus its tags and source.
 */
export interface ToolCard {
  readonly name: string;
  readonly tool: string;
  readonly source: { readonly kind: string; readonly toolset: string; readonly label: string };
  /** The first sentence of the description, or null when there is none. */
  readonly what: string | null;
  /** Sentences that say when (or when not) to use the tool, or null when the description has none. */
  readonly when: string | null;
  readonly arguments: readonly CardArgument[];
  /** Top-level fields of the output schema, or null when the tool declares none. */
  readonly returns: readonly { readonly name: string; readonly type: string }[] | null;
  readonly risk: { readonly level: Risk; readonly basis: RiskBasis };
  readonly tags: readonly string[];
}

const WHEN_SENTENCE =
  /\b(use (this|it|when|for|to)|when (you|the user)|do not use|don't use|not for|instead|only (for|when)|should be used|useful (for|when))\b|使う|使わない|場合|用于|不要用|适用/i;

function sentences(text: string): string[] {
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .split(/(?<=[.!?。！？])\s+|(?<=[。！？])/)
    .map((sentence) => sentence.trim())
    .filter((sentence) => sentence !== '');
}

function typeOf(schema: Record<string, unknown>): string {
  const type = schema['type'];
  if (Array.isArray(type)) return type.join(' | ');
  if (typeof type === 'string')
    return type === 'array' && isObject(schema['items']) ? `${typeOf(schema['items'])}[]` : type;
  if (Array.isArray(schema['enum'])) return 'enum';
  if (Array.isArray(schema['anyOf']) || Array.isArray(schema['oneOf'])) return 'union';
  return 'any';
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function exampleOf(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema['examples']) && schema['examples'].length > 0) return schema['examples'][0];
  if (schema['example'] !== undefined) return schema['example'];
  if (schema['default'] !== undefined) return schema['default'];
  if (Array.isArray(schema['enum']) && schema['enum'].length > 0) return schema['enum'][0];
  return null;
}

/**
 * A tool's risk: the owner's declaration (tool, then toolset) wins; else the MCP annotations
 * (`destructiveHint` → high, `readOnlyHint` → low); else medium. The basis says which applied.
 */
export function riskOf(tool: SessionTool): { level: Risk; basis: RiskBasis } {
  if (tool.risk !== undefined) return { level: tool.risk, basis: 'declared' };
  const annotations = tool.definition.annotations;
  if (annotations?.destructiveHint === true) return { level: 'high', basis: 'destructiveHint' };
  if (annotations?.readOnlyHint === true) return { level: 'low', basis: 'readOnlyHint' };
  return { level: 'medium', basis: 'default' };
}

/** The card of one tool. */
export function toolCard(tool: SessionTool): ToolCard {
  const all = sentences(tool.definition.description);
  const when = all.filter((sentence) => WHEN_SENTENCE.test(sentence));
  const schema = tool.definition.inputSchema;
  const properties = isObject(schema['properties']) ? schema['properties'] : {};
  const required = new Set(
    Array.isArray(schema['required']) ? schema['required'].filter((n): n is string => typeof n === 'string') : [],
  );
  const output = tool.definition.outputSchema;
  const outputProperties = output !== undefined && isObject(output['properties']) ? output['properties'] : undefined;
  return {
    name: tool.name,
    tool: tool.originalName,
    source: { kind: tool.kind, toolset: tool.toolset, label: tool.label },
    what: all[0] ?? null,
    when: when.length > 0 ? when.join(' ') : null,
    arguments: Object.entries(properties).map(([name, value]) => {
      const property = isObject(value) ? value : {};
      const text =
        typeof property['description'] === 'string' ? property['description'].replace(/\s+/g, ' ').trim() : '';
      const description = text !== '' ? text : null;
      return { name, type: typeOf(property), required: required.has(name), description, example: exampleOf(property) };
    }),
    returns:
      output === undefined
        ? null
        : Object.entries(outputProperties ?? {}).map(([name, value]) => ({
            name,
            type: isObject(value) ? typeOf(value) : 'any',
          })),
    risk: riskOf(tool),
    tags: tool.definition.tags,
  };
}

/** A card as text for a terminal. */
export function formatCard(card: ToolCard): string {
  const lines = [
    `${card.name}  (${card.source.label}, ${card.source.kind}; original name ${card.tool})`,
    `  what:    ${card.what ?? '— no description'}`,
    `  when:    ${card.when ?? '— the description does not say when to use it (or not)'}`,
    '  args:',
    ...(card.arguments.length === 0
      ? ['    (none)']
      : card.arguments.map(
          (arg) =>
            `    ${arg.name}${arg.required ? '*' : ''}: ${arg.type}${arg.description ? ` — ${arg.description}` : ' — (no description)'}${arg.example !== null ? `  e.g. ${JSON.stringify(arg.example)}` : ''}`,
        )),
    `  returns: ${card.returns === null ? '— no output schema' : card.returns.map((field) => `${field.name}: ${field.type}`).join(', ') || '(an object)'}`,
    `  risk:    ${card.risk.level} (${card.risk.basis === 'declared' ? 'declared by its owner' : card.risk.basis === 'default' ? 'nothing declared; default' : `from ${card.risk.basis}`})`,
    `  tags:    ${card.tags.length > 0 ? card.tags.join(', ') : '—'}`,
  ];
  return `${lines.join('\n')}\n`;
}
