import { JSONCodec, type NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { toolsetLabel, type ToolDefinition, type Toolset } from '@toolsearch/catalog';
import { nameSkeletons, scanToolDefinition, type PoisonFinding } from '@toolsearch/quality';
import { EVENTS, subject, type VettingEvent } from '@toolsearch/proto';
import type { AuditLog, TraceRecord } from '../dispatch/audit.adapter';
import { definitionDigest, vetToolset, type Pin, type VettingDecision, type VettingState } from './vet-toolset';
import { isPinned, type VettingConfig } from './vetting-config';
import type { VettingStore } from './vetting-store.adapter';

const codec = JSONCodec<VettingEvent>();
/** Findings kept by definition digest: a toolset put again mostly repeats its definitions. */
const MAX_CACHED_SCANS = 50_000;
/** Audit and event entries per vetting: one toolset of 10,000 poisoned tools cannot flood the trail. */
const MAX_RECORDED = 500;
/** Findings per tool in the event (the full list is in `toolsets diff`). */
const MAX_EVENT_FINDINGS = 10;

/**
 * The one door tool definitions pass before the registry stores them, whatever brought them
 * (`toolsets.put`, an MCP server's list or `list_changed`, a re-attach, a config catalog): the
 * registry stores what this returns, so listing, search, describe and `tool_call` on every replica
 * see the same vetted toolset. Each pass is recorded: one audit record per noteworthy tool (with
 * the digest before and after) and one summary record per toolset, and an event for operators.
 */
export class DefinitionGate {
  /** Findings by tenant context and definition digest (insertion order: the oldest go first). */
  readonly #scans = new Map<string, readonly PoisonFinding[]>();

  constructor(
    private readonly deps: {
      store: VettingStore;
      audit: AuditLog;
      nc: NatsConnection;
      vetting: (tenant: string) => VettingConfig;
      log: Logger;
      now?: () => number;
    },
  ) {}

  /**
   * The toolset sessions may see, given the tenant's other toolsets (`current`: whose server names
   * a reference may point at, whose tool names a look-alike may imitate).
   */
  async vet(tenant: string, raw: Toolset, current: ReadonlyMap<string, { toolset: Toolset }>): Promise<Toolset> {
    const policy = this.deps.vetting(tenant);
    const now = this.deps.now?.() ?? Date.now();
    const digests = raw.tools.map((tool) => definitionDigest(tool));
    const byName = new Map(raw.tools.map((tool, index) => [tool.name, digests[index] ?? '']));
    let state: VettingState;
    let stored = true;
    try {
      state = await this.deps.store.load(tenant, raw.id, byName);
    } catch (error) {
      // Redis is away: the registry (JetStream) still takes the change, judged against what
      // sessions see now — a tool that differs from it is held, never shown unseen.
      stored = false;
      state = registryState(current.get(raw.id)?.toolset);
      this.deps.log.warn(
        { tenant, toolset: raw.id, err: String(error) },
        'tool vetting without its store: holding changes against the registry',
      );
    }
    const scan = this.#scanner(tenant, raw, current, policy);
    const result = vetToolset(raw, digests, state, policy, isPinned(policy, raw.id), scan, now);
    const noteworthy = result.decisions.flatMap((item): EventDecision[] =>
      item.decision === 'pinned' || item.decision === 'unchanged' ? [] : [{ ...item, decision: item.decision }],
    );
    try {
      if (stored) await this.deps.store.save(tenant, raw, result.newPins, result.review);
      await this.#record(tenant, raw.id, noteworthy, now, summary(result.decisions, raw.tools.length));
    } catch (error) {
      // What sessions see is decided; only the evidence could not be written (the log keeps it).
      this.deps.log.warn(
        { tenant, toolset: raw.id, decisions: countBy(noteworthy), err: String(error) },
        'tool vetting: could not record',
      );
    }
    if (noteworthy.length > 0) {
      this.deps.log.warn(
        { tenant, toolset: raw.id, decisions: countBy(noteworthy) },
        'tool vetting: findings or held changes (see toolsets diff)',
      );
    }
    return result.toolset;
  }

  /** Audit records and the operators' event for decisions (also an operator's acceptance). */
  async record(tenant: string, toolset: string, decisions: readonly EventDecision[], by: string): Promise<void> {
    await this.#record(tenant, toolset, decisions, this.deps.now?.() ?? Date.now(), undefined, by);
  }

  async #record(
    tenant: string,
    toolset: string,
    decisions: readonly EventDecision[],
    at: number,
    summaryText?: string,
    by?: string,
  ): Promise<void> {
    const kept = decisions.slice(0, MAX_RECORDED);
    const records: TraceRecord[] = kept.map((item) => ({
      tenant,
      session: '',
      callId: '',
      tool: item.tool,
      toolset,
      digest: item.after,
      digestBefore: item.before,
      detail: by !== undefined ? `by ${by}` : [...new Set(item.findings.map((finding) => finding.code))].join(','),
      durationMs: 0,
      retries: 0,
      outcome: `vetting:${item.decision}`,
      approvalId: '',
      at,
    }));
    if (summaryText !== undefined)
      records.push({
        tenant,
        session: '',
        callId: '',
        tool: '*',
        toolset,
        digest: '',
        detail: summaryText,
        durationMs: 0,
        retries: 0,
        outcome: 'vetting:scanned',
        approvalId: '',
        at,
      });
    await this.deps.audit.append(records);
    if (kept.length === 0) return;
    const event: VettingEvent = {
      tenant,
      toolset,
      decisions: kept.map((item) => ({ ...item, findings: item.findings.slice(0, MAX_EVENT_FINDINGS) })),
    };
    try {
      this.deps.nc.publish(subject(EVENTS.toolsetVetting.template, { tenant }), codec.encode(event));
    } catch (error) {
      // Past the server's max_payload: the audit trail has the records; the event is best effort.
      this.deps.log.warn({ tenant, toolset, err: String(error) }, 'tool vetting event not published');
    }
  }

  #scanner(
    tenant: string,
    raw: Toolset,
    current: ReadonlyMap<string, { toolset: Toolset }>,
    policy: VettingConfig,
  ): (tool: ToolDefinition, digest: string) => readonly PoisonFinding[] {
    const others = [...current.values()].map((entry) => entry.toolset).filter((toolset) => toolset.id !== raw.id);
    const servers = [raw, ...others].map((toolset) => toolsetLabel(toolset).toLowerCase()).sort();
    // What the findings depend on besides the definition: the same key, the same findings.
    const context = `${tenant}\u0000${servers.join(',')}\u0000${policy.allowedHosts.join(',')}`;
    let skeletons: Map<string, string[]> | undefined;
    const options = {
      server: toolsetLabel(raw),
      knownServers: new Set(servers),
      allowedHosts: policy.allowedHosts,
      nameSkeletons: () =>
        (skeletons ??= nameSkeletons([raw, ...others].flatMap((toolset) => toolset.tools.map((tool) => tool.name)))),
    };
    return (tool, digest) => {
      const key = `${context}\u0000${digest}`;
      const known = this.#scans.get(key);
      if (known !== undefined) return known;
      const findings = scanToolDefinition(tool, options);
      if (this.#scans.size >= MAX_CACHED_SCANS) this.#scans.delete(this.#scans.keys().next().value as string);
      this.#scans.set(key, findings);
      return findings;
    };
  }
}

/** A decision as recorded: the vetting's own, or an operator's `accepted`. */
export type EventDecision = Omit<VettingDecision, 'decision'> & {
  decision: VettingEvent['decisions'][number]['decision'];
};

/** Pins as the registry shows them (for when the store cannot be read). */
function registryState(toolset: Toolset | undefined): VettingState {
  const pins = new Map<string, Pin>(
    (toolset?.tools ?? []).map((definition) => [
      definition.name,
      { digest: definitionDigest(definition), definition, by: 'registry', at: 0 },
    ]),
  );
  return {
    pinDigests: new Map([...pins].map(([tool, pin]) => [tool, pin.digest])),
    pins,
    releases: new Map(),
  };
}

function countBy(decisions: readonly { decision: string }[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of decisions) counts[item.decision] = (counts[item.decision] ?? 0) + 1;
  return counts;
}

function summary(decisions: readonly VettingDecision[], tools: number): string {
  const counts = Object.entries(countBy(decisions))
    .map(([decision, count]) => `${decision} ${count}`)
    .join(', ');
  return `${tools} tools: ${counts || 'none'}`;
}
