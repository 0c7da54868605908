import {
  AuditRecentRequestSchema,
  SessionsListRequestSchema,
  type AuditRecord,
  type SessionSummary,
  type ToolsetSummary,
} from '@toolsearch/proto';
import type { AuditLog } from './dispatch/audit.adapter';
import type { ToolsetRegistry } from './registry.adapter';
import { parse } from './serve-request';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';
import { surfaceSummary } from './surface-endpoints';

/**
 * Read-only views for operators (the `toolsearch` CLI's sessions, toolsets, tiers and activity
 * commands). Every view is of one tenant, named by the request's subject.
 */
export class OperatorViews {
  constructor(
    private readonly deps: {
      store: SessionStore;
      registry: ToolsetRegistry;
      surfaces: SurfaceBuilder;
      audit: AuditLog;
      descriptor: (tenant: string, session: string | undefined) => Promise<SessionDescriptor>;
    },
  ) {}

  /** The tenant's open sessions; with `owner`, only those that credential opened (a gateway's view). */
  async sessionsList(tenant: string, body: unknown, owner?: string) {
    const request = parse(SessionsListRequestSchema, body);
    const ids = await this.deps.store.list(tenant);
    const descriptors = (await this.deps.store.loadMany(tenant, ids))
      .filter((descriptor) => owner === undefined || descriptor.owner === owner)
      .filter((descriptor) => request.role === undefined || descriptor.role === request.role)
      .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1));
    const sessions: SessionSummary[] = descriptors.slice(0, request.limit).map((descriptor) => ({
      id: descriptor.id,
      role: descriptor.role,
      ...(descriptor.parent !== undefined ? { parent: descriptor.parent } : {}),
      toolsets: descriptor.grant.toolsets,
      context_length: descriptor.model.contextLength,
      created_at: descriptor.createdAt,
    }));
    return { ok: true as const, sessions, total: descriptors.length };
  }

  async sessionShow(tenant: string, session: string | undefined) {
    const descriptor = await this.deps.descriptor(tenant, session);
    const { result } = this.deps.surfaces.forRequest(descriptor, this.deps.registry).assembly;
    return {
      ok: true as const,
      session: {
        id: descriptor.id,
        tenant,
        role: descriptor.role,
        ...(descriptor.parent !== undefined ? { parent: descriptor.parent } : {}),
        grant: descriptor.grant,
        model: descriptor.model,
        created_at: descriptor.createdAt,
        children: (await this.deps.store.children(tenant, descriptor.id)).sort(),
        core_tools: descriptor.coreTools.map((tool) => tool.name),
      },
      surface: surfaceSummary(result),
    };
  }

  toolsetsList(tenant: string) {
    const toolsets: ToolsetSummary[] = [...this.deps.registry.toolsets(tenant).values()]
      .map(({ toolset, revision }) => ({
        id: toolset.id,
        kind: toolset.kind,
        ...(toolset.label !== undefined ? { label: toolset.label } : {}),
        tools: toolset.tools.length,
        revision,
        ...(toolset.unavailable !== undefined ? { unavailable: toolset.unavailable } : {}),
      }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return Promise.resolve({ ok: true as const, toolsets });
  }

  async auditRecent(tenant: string, body: unknown) {
    const request = parse(AuditRecentRequestSchema, body);
    // A session filter reads further back so it still finds that session's calls among others'.
    const scan = request.session === undefined ? request.limit : Math.min(request.limit * 20, 20_000);
    const records: AuditRecord[] = (await this.deps.audit.recent(tenant, scan))
      .filter((record) => request.session === undefined || record.session === request.session)
      .slice(0, request.limit)
      .map((record) => ({
        tenant: record.tenant,
        session: record.session,
        call_id: record.callId,
        tool: record.tool,
        toolset: record.toolset,
        digest: record.digest,
        duration_ms: record.durationMs,
        retries: record.retries,
        outcome: record.outcome,
        approval_id: record.approvalId,
        at: record.at,
        ...(record.arguments !== undefined ? { arguments: record.arguments } : {}),
        ...(record.result !== undefined ? { result: record.result } : {}),
        ...(record.digestBefore !== undefined ? { digest_before: record.digestBefore } : {}),
        ...(record.detail !== undefined ? { detail: record.detail } : {}),
      }));
    return { ok: true as const, records };
  }
}
