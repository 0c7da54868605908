import {
  ToolsetsAcceptRequestSchema,
  ToolsetsDiffRequestSchema,
  WIRE_ERROR_CODES,
  type ReviewItem as WireReviewItem,
} from '@toolsearch/proto';
import type { ToolsetRegistry } from '../registry.adapter';
import { parse, RequestError } from '../serve-request';
import type { TierFanout } from '../tier-fanout';
import type { DefinitionGate, EventDecision } from './definition-gate';
import { lineDiff } from './line-diff';
import type { Pin, ReviewItem } from './vet-toolset';
import type { VettingStore } from './vetting-store.adapter';

function pretty(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

function toWire(item: ReviewItem): WireReviewItem {
  return {
    tool: item.tool,
    kind: item.kind,
    before: item.before,
    after: item.after,
    risk_relevant: item.riskRelevant,
    diff: lineDiff(pretty(item.pinned), pretty(item.definition)),
    findings: item.findings.map((finding) => ({ ...finding, span: { ...finding.span } })),
    at: item.at,
  };
}

/**
 * The operators' side of vetting: `toolsets.diff` shows what waits (a change to a pinned tool with
 * its line diff, or a quarantined definition with its findings); `toolsets.accept` pins the
 * reviewed changes and releases the reviewed quarantined definitions, then stores the toolset
 * again from what its source last sent, so every session gets the accepted definitions.
 */
export class VettingEndpoints {
  constructor(
    private readonly deps: {
      store: VettingStore;
      gate: DefinitionGate;
      registry: ToolsetRegistry;
      fanout: TierFanout;
    },
  ) {}

  async diff(tenant: string, body: unknown) {
    const { toolset } = parse(ToolsetsDiffRequestSchema, body);
    // A toolset removed since keeps its pins (a re-attach is compared with them), not its review.
    const registered = this.deps.registry.toolsets(tenant);
    const held = (await this.deps.store.review(tenant, toolset)).filter((entry) => registered.has(entry.toolset));
    return {
      ok: true as const,
      toolsets: held.map((entry) => ({ toolset: entry.toolset, items: entry.items.map((item) => toWire(item)) })),
    };
  }

  async accept(tenant: string, body: unknown, by: string) {
    const request = parse(ToolsetsAcceptRequestSchema, body);
    const [held] = await this.deps.store.review(tenant, request.toolset);
    const raw = await this.deps.store.raw(tenant, request.toolset);
    // Accepting must never bring back a toolset that was deleted or detached since.
    if (held === undefined || raw === undefined || !this.deps.registry.toolsets(tenant).has(request.toolset))
      throw new RequestError(
        WIRE_ERROR_CODES.TOOLSET_NOT_FOUND,
        `toolset '${request.toolset}' has nothing waiting for review; \`toolsearch toolsets diff\` lists what does.`,
      );
    const wanted = request.tools === undefined ? undefined : new Set(request.tools);
    const stale = new Set<string>();
    const accepted = held.items.filter((item) => {
      if (wanted !== undefined && !wanted.has(item.tool)) return false;
      const reviewed = request.digests?.[item.tool];
      if (reviewed !== undefined && reviewed !== item.after) {
        stale.add(item.tool);
        return false;
      }
      return true;
    });
    for (const tool of wanted ?? []) if (!held.items.some((item) => item.tool === tool)) stale.add(tool);
    const at = Date.now();
    const pins: { tool: string; pin: Pin }[] = accepted.map((item) => ({
      tool: item.tool,
      pin: { digest: item.after, definition: item.definition, by, at },
    }));
    // An accepted definition is the operator's word: its findings do not hold it back any more.
    const releases = accepted.map((item) => ({ tool: item.tool, digest: item.after }));
    await this.deps.store.accept(tenant, request.toolset, pins, releases);
    const decisions: EventDecision[] = accepted.map((item) => ({
      tool: item.tool,
      decision: 'accepted',
      before: item.before,
      after: item.after,
      findings: item.findings,
    }));
    await this.deps.gate.record(tenant, request.toolset, decisions, by);
    // Stored again through the gate, which now finds the new pins and releases.
    const revision = await this.deps.registry.put(tenant, raw);
    this.deps.fanout.publishToolsetChanged(tenant, raw.id, revision, false);
    return {
      ok: true as const,
      toolset: request.toolset,
      accepted: accepted.map(({ tool, kind, before, after }) => ({ tool, kind, before, after })),
      stale: [...stale].sort(),
      revision,
    };
  }
}
