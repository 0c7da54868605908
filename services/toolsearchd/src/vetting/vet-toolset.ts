import { createHash } from 'node:crypto';
import type { ToolDefinition, Toolset, WithheldTool } from '@toolsearch/catalog';
import { stripFindings, type PoisonFinding, type PoisonSeverity } from '@toolsearch/quality';
import type { VettingAction, VettingConfig } from './vetting-config';

/** A tool's pinned definition: what sessions see until an operator accepts a change. */
export interface Pin {
  readonly digest: string;
  readonly definition: ToolDefinition;
  /** Who accepted it: `first-seen` for a definition pinned when it first came, else the operator key. */
  readonly by: string;
  readonly at: number;
}

/** Something an operator must look at: a changed definition, or a quarantined one. */
export interface ReviewItem {
  readonly tool: string;
  /** `change`: differs from its pin; `quarantine`: withheld for its findings. */
  readonly kind: 'change' | 'quarantine';
  /** The pinned digest (empty when there is no pin). */
  readonly before: string;
  /** The digest of the definition the source sent. */
  readonly after: string;
  /** For a change: it touches what a call does (schema, annotations, risk), not only its prose. */
  readonly riskRelevant: boolean;
  /** The definition the source sent. */
  readonly definition: ToolDefinition;
  /** The pinned definition, for a change (the diff's left side). */
  readonly pinned?: ToolDefinition;
  readonly findings: readonly PoisonFinding[];
  readonly at: number;
}

/** What the store holds for one toolset of a tenant. */
export interface VettingState {
  /** Pinned digests by tool. */
  readonly pinDigests: ReadonlyMap<string, string>;
  /** The pins of the tools whose digest differs (the only definitions read back). */
  readonly pins: ReadonlyMap<string, Pin>;
  /** Quarantined definitions an operator released, by tool: the digest released. */
  readonly releases: ReadonlyMap<string, string>;
}

/** One decision about one tool, for the audit trail and the operators' event. */
export interface VettingDecision {
  readonly tool: string;
  /** `pinned` (first definition), `unchanged`, `warned`, `stripped`, `quarantined`, `held` (change pending), `released`. */
  readonly decision: 'pinned' | 'unchanged' | 'warned' | 'stripped' | 'quarantined' | 'held' | 'released';
  /** The pinned digest (empty when there was none). */
  readonly before: string;
  /** The digest of the definition the source sent. */
  readonly after: string;
  readonly findings: readonly PoisonFinding[];
}

/** The outcome of vetting one toolset: what sessions get, and what the store must record. */
export interface VettingResult {
  readonly toolset: Toolset;
  readonly decisions: readonly VettingDecision[];
  readonly newPins: readonly { tool: string; pin: Pin }[];
  /** Everything of this toolset that now waits for an operator (replaces what waited before). */
  readonly review: readonly ReviewItem[];
}

/** Object keys in sorted order, so that key order never changes a digest (objects already in order are kept). */
function sortedKeys(_key: string, value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  let ordered = true;
  for (let index = 1; index < keys.length && ordered; index += 1)
    ordered = (keys[index - 1] as string) < (keys[index] as string);
  if (ordered) return value;
  const out: Record<string, unknown> = {};
  for (const key of keys.sort()) out[key] = (value as Record<string, unknown>)[key];
  return out;
}

/**
 * Canonical JSON: sorted keys, native `JSON.stringify` (with the sorting replacer it is 2× faster
 * than building the string by hand: 50 against 110 ms for the 6,041 Toucan definitions).
 */
function canonical(value: unknown): string {
  return JSON.stringify(value, sortedKeys) ?? '';
}

/** The definition's digest: sha256 of its canonical JSON (key order does not matter). */
export function definitionDigest(tool: ToolDefinition): string {
  return createHash('sha256').update(canonical(tool)).digest('hex');
}

/** A schema without the keys that say nothing (`properties: {}`, `required: []`). */
function meaningful(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && typeof value === 'object' && value !== null && Object.keys(value).length === 0)
      continue;
    if (key === 'required' && Array.isArray(value) && value.length === 0) continue;
    out[key] = value;
  }
  return out;
}

/**
 * Everything but the prose: a change here changes what a call takes or does, or how risky it is.
 * Schemas are compared without keys that say nothing, so `{type: "object"}` and the same with an
 * empty `properties` are one shape.
 */
function riskShape(tool: ToolDefinition): string {
  const {
    description: _description,
    title: _title,
    annotations,
    inputSchema,
    outputSchema,
    ...rest
  } = tool as ToolDefinition & { title?: unknown };
  const { title: _annotationTitle, ...hints } = annotations ?? {};
  return canonical({
    ...rest,
    annotations: hints,
    inputSchema: meaningful(inputSchema),
    outputSchema: meaningful(outputSchema),
  });
}

const ACTION_RANK: Record<VettingAction, number> = { warn: 0, strip: 1, quarantine: 2 };

function strongest(findings: readonly PoisonFinding[], policy: VettingConfig): VettingAction | undefined {
  let action: VettingAction | undefined;
  for (const finding of findings) {
    const wanted = policy[finding.severity satisfies PoisonSeverity];
    if (action === undefined || ACTION_RANK[wanted] > ACTION_RANK[action]) action = wanted;
  }
  return action;
}

/** How the vetting reads a definition: findings by digest (the caller caches them). */
export type ScanDefinition = (tool: ToolDefinition, digest: string) => readonly PoisonFinding[];

interface Candidate {
  readonly definition: ToolDefinition;
  readonly digest: string;
  readonly findings: readonly PoisonFinding[];
}

/**
 * Vets one toolset: the single decision of what sessions may see of it. Pure (the store's state
 * in, the new state out), so every path a definition comes by — `toolsets.put`, an MCP server's
 * list and its `list_changed`, a re-attach, a config catalog — gets the same answer.
 *
 * 1. Pinning (when on): a tool with no pin is new; one whose digest equals its pin is unchanged;
 *    any other is a pending change, and sessions keep the pinned definition — or none, if the
 *    change is risk-relevant (schema, annotations, risk).
 * 2. Policy on what would be shown, by the strongest action its findings' severities call for:
 *    `warn` keeps it, `strip` cuts the offending spans (a finding in a name cannot be cut: the tool
 *    is quarantined instead), `quarantine` withholds it until an operator releases that digest.
 * 3. A new tool that is not quarantined is pinned (its first accepted definition).
 */
export function vetToolset(
  raw: Toolset,
  digests: readonly string[],
  state: VettingState,
  policy: VettingConfig,
  pinned: boolean,
  scan: ScanDefinition,
  now: number,
): VettingResult {
  const tools: ToolDefinition[] = [];
  const withheld: WithheldTool[] = [];
  const decisions: VettingDecision[] = [];
  const newPins: { tool: string; pin: Pin }[] = [];
  const review: ReviewItem[] = [];
  raw.tools.forEach((definition, index) => {
    const digest = digests[index] ?? definitionDigest(definition);
    const findings = scan(definition, digest);
    const pinnedDigest = pinned ? state.pinDigests.get(definition.name) : undefined;
    const pin = pinnedDigest !== undefined && pinnedDigest !== digest ? state.pins.get(definition.name) : undefined;
    const note = (decision: VettingDecision['decision'], shown: readonly PoisonFinding[] = findings): void => {
      decisions.push({ tool: definition.name, decision, before: pinnedDigest ?? '', after: digest, findings: shown });
    };
    let candidate: Candidate = { definition, digest, findings };
    if (pinnedDigest !== undefined && pinnedDigest !== digest) {
      // A pin whose definition cannot be read back is treated as a risk-relevant change.
      const riskRelevant = pin === undefined || riskShape(pin.definition) !== riskShape(definition);
      review.push({
        tool: definition.name,
        kind: 'change',
        before: pinnedDigest,
        after: digest,
        riskRelevant,
        definition,
        ...(pin !== undefined ? { pinned: pin.definition } : {}),
        findings,
        at: now,
      });
      note('held');
      if (riskRelevant || pin === undefined) {
        withheld.push({
          name: definition.name,
          code: 'TOOL_CHANGE_PENDING',
          reason: 'its server changed what the tool takes or does, and the change waits for review.',
        });
        return;
      }
      candidate = { definition: pin.definition, digest: pin.digest, findings: scan(pin.definition, pin.digest) };
    }
    const action = strongest(candidate.findings, policy);
    let shown = candidate.definition;
    let quarantined = action === 'quarantine';
    if (action === 'strip') {
      const stripped = stripFindings(candidate.definition, candidate.findings);
      shown = stripped.tool;
      quarantined = stripped.unstrippable.length > 0;
    }
    const released = quarantined && state.releases.get(definition.name) === candidate.digest;
    if (quarantined && !released) {
      const codes = [...new Set(candidate.findings.map((finding) => finding.code))].join(', ');
      withheld.push({
        name: definition.name,
        code: 'TOOL_QUARANTINED',
        reason: `its definition has findings (${codes}).`,
      });
      if (candidate.definition === definition) {
        note('quarantined');
        review.push({
          tool: definition.name,
          kind: 'quarantine',
          before: pinnedDigest ?? '',
          after: digest,
          riskRelevant: false,
          definition,
          findings: candidate.findings,
          at: now,
        });
      }
      return;
    }
    tools.push(released ? candidate.definition : shown);
    if (candidate.definition !== definition) return;
    if (pinned && pinnedDigest === undefined)
      newPins.push({ tool: definition.name, pin: { digest, definition, by: 'first-seen', at: now } });
    if (released) note('released');
    else if (action === 'strip') note('stripped');
    else if (findings.length > 0) note('warned');
    else note(pinnedDigest === undefined && pinned ? 'pinned' : 'unchanged');
  });
  const toolset: Toolset = { ...raw, tools };
  if (withheld.length > 0) return { toolset: { ...toolset, withheld }, decisions, newPins, review };
  // A source cannot withhold tools itself: only the vetting sets this.
  const { withheld: _ignored, ...clean } = toolset;
  return { toolset: clean, decisions, newPins, review };
}
