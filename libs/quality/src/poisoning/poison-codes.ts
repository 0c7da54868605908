/** How much a poisoning finding should worry an operator. */
export type PoisonSeverity = 'high' | 'medium' | 'low';

/**
 * Poisoning finding codes. `severity` is the usual one; a finding may be raised (a run of hidden
 * characters long enough to carry a message) or lowered (a URL to an allowed host) case by case.
 */
export const POISON_CODES = {
  IGNORE_INSTRUCTIONS: {
    severity: 'high',
    fix: 'Remove the text that tells the model to drop its instructions; a tool description only says what the tool does.',
  },
  CONCEAL_FROM_USER: {
    severity: 'high',
    fix: 'Remove the text asking to keep something from the user; nothing a tool does should be hidden from them.',
  },
  SECRET_FILE: {
    severity: 'high',
    fix: 'Remove the request to read or pass a credential file; a tool that needs a secret gets it from its own configuration.',
  },
  SENSITIVE_PATH: {
    severity: 'medium',
    fix: 'Check why the text names a credential or configuration file; document the setting instead of the path.',
  },
  SECRET_REQUEST: {
    severity: 'low',
    fix: 'Check that the secret named here is one the tool itself needs, asked for as a declared parameter.',
  },
  MODEL_DIRECTIVE: {
    severity: 'medium',
    fix: 'Describe the tool instead of giving the model orders about when to call it or other tools.',
  },
  OTHER_SERVER_TOOL: {
    severity: 'medium',
    fix: "Do not name other servers' tools; a server describes only its own tools.",
  },
  INVISIBLE_TAGS: {
    severity: 'high',
    fix: 'Remove the Unicode tag characters: they are invisible to people and still read by the model.',
  },
  BIDI_CONTROL: {
    severity: 'high',
    fix: 'Remove the bidirectional override or isolate characters: they make the text read differently than it shows.',
  },
  ZERO_WIDTH: {
    severity: 'medium',
    fix: 'Remove the zero-width characters: they hide text or split words so that filters miss them.',
  },
  DEFAULT_IGNORABLE: {
    severity: 'medium',
    fix: 'Remove the characters that render as nothing (soft hyphens, fillers, stray variation selectors).',
  },
  HIDDEN_MARKUP: {
    severity: 'medium',
    fix: 'Remove HTML comments and long blank padding: they hide text from a person reading the description.',
  },
  HOMOGLYPH_NAME: {
    severity: 'high',
    fix: 'Rename the tool: its name looks like another tool of the catalog but is spelled with other characters.',
  },
  MIXED_SCRIPT_NAME: {
    severity: 'medium',
    fix: 'Name the tool in one script: a name that mixes scripts can pass for another one.',
  },
  OVERSIZED_TEXT: {
    severity: 'medium',
    fix: 'Shorten the text; a long description costs context and is where instructions get buried.',
  },
  URL_HOST: {
    severity: 'medium',
    fix: 'Check the link; if the host is trusted, add it to the allow-list.',
  },
} as const satisfies Record<string, { severity: PoisonSeverity; fix: string }>;
export type PoisonCode = keyof typeof POISON_CODES;

/** A character range in a field's original text, end exclusive (UTF-16 code units). */
export interface TextSpan {
  readonly start: number;
  readonly end: number;
}

/** One suspicious piece of a tool definition. */
export interface PoisonFinding {
  readonly code: PoisonCode;
  readonly severity: PoisonSeverity;
  /** JSON path of the field in the definition, e.g. `$.inputSchema.properties.notes.description`. */
  readonly field: string;
  readonly span: TextSpan;
  /** The text found, made visible: hidden characters as `<U+200B>`, tag characters decoded. */
  readonly excerpt: string;
  readonly fix: string;
}

/** Severity order, high first: for sorting and thresholds. */
export const SEVERITY_RANK: Readonly<Record<PoisonSeverity, number>> = { high: 0, medium: 1, low: 2 };

export function poisonFinding(
  code: PoisonCode,
  field: string,
  span: TextSpan,
  excerpt: string,
  severity: PoisonSeverity = POISON_CODES[code].severity,
): PoisonFinding {
  return { code, severity, field, span, excerpt, fix: POISON_CODES[code].fix };
}
