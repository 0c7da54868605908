import { scanHiddenText, visibleText } from './hidden-text';
import { hasImitation, isMixedScript, skeleton } from './homoglyphs';
import { normalizeForMatching, type NormalizedText } from './normalize';
import { PhraseSet } from './phrase-match';
import { PHRASE_RULES } from './phrase-rules';
import { FieldPrefilter } from './prefilter';
import { poisonFinding, SEVERITY_RANK, type PoisonCode, type PoisonFinding } from './poison-codes';
import { scanOtherServerTools, scanUrls } from './references';
import { SCAN_LIMITS, textField, visitTextFields, type ScannableTool, type TextField } from './text-fields';

/** What the scanner knows beyond the definition itself. */
export interface PoisonScanOptions {
  /** The tool's own server (its `server__` prefix is not a reference to another server). */
  readonly server?: string;
  /** Hosts whose links are not reported (a host also allows its subdomains; `*.` is optional). */
  readonly allowedHosts?: readonly string[];
  /** Servers of the catalog, lower case: when given, only `name__tool` of these servers is reported. */
  readonly knownServers?: ReadonlySet<string>;
  /**
   * Other tool names of the catalog by skeleton, for look-alike names (see `nameSkeletons`), or a
   * function giving them: only a name outside ASCII needs them, so a catalog builds them lazily.
   */
  /** Skip the prefilter: every field gets the full scan (for tests that prove them exact). */
  readonly exhaustive?: boolean;
  readonly nameSkeletons?: ReadonlyMap<string, readonly string[]> | (() => ReadonlyMap<string, readonly string[]>);
}

/** A description longer than this is oversized (the public catalogs: 99.9 % are under 3,600). */
export const OVERSIZED_DESCRIPTION = 4_000;
/** Any other text field longer than this is oversized. */
export const OVERSIZED_FIELD = 2_000;
/** A run of blank lines or white space this long pushes text out of a reader's view. */
const PADDING_NEWLINES = 20;
const PADDING_SPACES = 200;
/** Codes that mean the field gives orders; a secret asked for next to them is an exfiltration. */
const ORDERS: ReadonlySet<PoisonCode> = new Set([
  'MODEL_DIRECTIVE',
  'CONCEAL_FROM_USER',
  'IGNORE_INSTRUCTIONS',
  'OTHER_SERVER_TOOL',
]);

/** Built once: every phrase of every rule in one automaton. */
const PHRASES = new PhraseSet(PHRASE_RULES);
/** Built once from the same rules: proves most clean fields clean in one cheap pass. */
const PREFILTER = new FieldPrefilter(PHRASE_RULES);

function isAsciiName(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) >= 0x80) return false;
  return true;
}

function phraseFindings(field: TextField, normalized: NormalizedText): PoisonFinding[] {
  return PHRASES.match(normalized).map(({ rule, match }) => {
    const start = normalized.offsets[match.start] ?? 0;
    const end = (normalized.offsets[match.end - 1] ?? start) + 1;
    return poisonFinding(rule.code, field.path, { start, end }, visibleText(field.text.slice(start, end)));
  });
}

function markupFindings(field: TextField, normalized: NormalizedText): PoisonFinding[] {
  const findings: PoisonFinding[] = [];
  const padded = normalized.longestBlank >= PADDING_SPACES || normalized.mostNewlines >= PADDING_NEWLINES;
  const text = field.text;
  const comment = text.indexOf('<!--');
  if (comment >= 0) {
    const close = text.indexOf('-->', comment + 4);
    const end = close < 0 ? text.length : close + 3;
    findings.push(
      poisonFinding('HIDDEN_MARKUP', field.path, { start: comment, end }, visibleText(text.slice(comment, end))),
    );
  }
  let runStart = -1;
  let newlines = 0;
  for (let index = 0; padded && index <= text.length; index += 1) {
    const code = index < text.length ? text.charCodeAt(index) : 0;
    if (code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0xa0 || code === 0x3000) {
      if (runStart < 0) runStart = index;
      if (code === 0x0a) newlines += 1;
      continue;
    }
    if (runStart >= 0 && (newlines >= PADDING_NEWLINES || index - runStart >= PADDING_SPACES)) {
      const excerpt = `${index - runStart} blank characters, ${newlines} line breaks`;
      findings.push(poisonFinding('HIDDEN_MARKUP', field.path, { start: runStart, end: index }, excerpt));
    }
    runStart = -1;
    newlines = 0;
  }
  return findings;
}

function sizeFindings(field: TextField): PoisonFinding[] {
  const limit = field.path === '$.description' ? OVERSIZED_DESCRIPTION : OVERSIZED_FIELD;
  if (field.kind === 'name' || field.fullLength <= limit) return [];
  const severity = field.path === '$.description' || field.fullLength > field.text.length ? 'medium' : 'low';
  const span = { start: limit, end: field.fullLength };
  return [
    poisonFinding('OVERSIZED_TEXT', field.path, span, `${field.fullLength} characters (limit ${limit})`, severity),
  ];
}

function nameFindings(field: TextField, options: PoisonScanOptions): PoisonFinding[] {
  if (field.path !== '$.name' || !(hasImitation(field.text) || isMixedScript(field.text))) return [];
  const span = { start: 0, end: field.text.length };
  const skeletons = typeof options.nameSkeletons === 'function' ? options.nameSkeletons() : options.nameSkeletons;
  const lookalikes = (skeletons?.get(skeleton(field.text)) ?? []).filter((name) => name !== field.text);
  if (lookalikes.length > 0) {
    const excerpt = `${visibleText(field.text)} looks like ${lookalikes.slice(0, 3).join(', ')}`;
    return [poisonFinding('HOMOGLYPH_NAME', field.path, span, excerpt)];
  }
  return [poisonFinding('MIXED_SCRIPT_NAME', field.path, span, visibleText(field.text))];
}

/** A secret asked for in a field that also gives orders is raised to high; duplicates are dropped. */
function settle(findings: PoisonFinding[]): PoisonFinding[] {
  if (findings.length === 0) return findings;
  const ordersIn = new Set(findings.filter((item) => ORDERS.has(item.code)).map((item) => item.field));
  const secretFiles = findings.filter((item) => item.code === 'SECRET_FILE');
  const seen = new Set<string>();
  return findings
    .map((item) =>
      item.code === 'SECRET_REQUEST' && ordersIn.has(item.field) ? { ...item, severity: 'high' as const } : item,
    )
    .filter((item) => {
      if (
        item.code === 'SENSITIVE_PATH' &&
        secretFiles.some(
          (file) => file.field === item.field && file.span.start <= item.span.start && file.span.end >= item.span.end,
        )
      )
        return false;
      const key = `${item.code}\u0000${item.field}\u0000${item.span.start}`;
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
}

/**
 * Scans one tool definition for text meant to steer the model rather than describe the tool:
 * orders (in English, Japanese and Chinese), hidden characters, other servers' tools, credential
 * files, look-alike names, oversized text and links. Linear in the definition's size, which is
 * itself bounded (`SCAN_LIMITS`). Findings come high severity first.
 */
export function scanToolDefinition(tool: ScannableTool, options: PoisonScanOptions = {}): PoisonFinding[] {
  const findings: PoisonFinding[] = [];
  const quick = options.exhaustive !== true;
  visitTextFields(tool, (text, kind, path) => {
    // Most fields are clean ASCII prose or names: one cheap pass proves it (see FieldPrefilter),
    // and only the length check applies. Everything else gets the full scan.
    if (quick && (kind === 'name' ? isAsciiName(text) : !PREFILTER.needsFullScan(text, SCAN_LIMITS.fieldChars))) {
      if (kind === 'text' && text.length > OVERSIZED_FIELD) findings.push(...sizeFindings(textField(text, kind, path)));
      return;
    }
    fullScan(textField(text, kind, path), options, findings);
  });
  return settle(findings);
}

/** Every detailed scan of one field that the prefilter could not clear. */
function fullScan(field: TextField, options: PoisonScanOptions, findings: PoisonFinding[]): void {
  // One normalising pass tells which of the other scans can have anything to find.
  const normalized = normalizeForMatching(field.text);
  if (normalized.hidden > 0) findings.push(...scanHiddenText(field));
  findings.push(...sizeFindings(field), ...nameFindings(field, options));
  if (field.kind === 'name') return;
  findings.push(
    ...phraseFindings(field, normalized),
    ...markupFindings(field, normalized),
    ...scanUrls(field, options.allowedHosts ?? []),
    ...scanOtherServerTools(field, options.server, options.knownServers),
  );
}

/** Tool names by skeleton, for `PoisonScanOptions.nameSkeletons`. */
export function nameSkeletons(names: Iterable<string>): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const name of names) {
    const key = skeleton(name);
    const list = map.get(key);
    if (list === undefined) map.set(key, [name]);
    else if (!list.includes(name) && list.length < 8) list.push(name);
  }
  return map;
}
