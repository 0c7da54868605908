import type { z } from 'zod';
import type { ENDPOINTS, EndpointName, ErrorReply, SubjectParams } from '@toolsearch/proto';
import type { DaemonParts } from './composition';
import type { DaemonMetrics } from './http/metrics';
import { visibleOwner } from './identity/callers';
import type { Caller } from './identity/credentials';

/** What an endpoint may answer: its contract reply (before defaults are applied) or an error reply. */
export type EndpointReply<K extends EndpointName> = z.input<(typeof ENDPOINTS)[K]['reply']> | ErrorReply;

/**
 * The daemon's handler of every endpoint of the contract, typed by it: a reply schema that changes
 * in `proto` breaks this table's compilation until the handler follows.
 */
export type EndpointHandlers = {
  readonly [K in EndpointName]: (
    params: SubjectParams & { tenant: string },
    payload: unknown,
    caller: Caller,
  ) => Promise<EndpointReply<K>>;
};

/**
 * `approvals.<id>.decide` for a verified approver, with its metric: over NATS and from the web
 * console alike.
 */
export async function decideHeldCall(
  parts: DaemonParts,
  metrics: DaemonMetrics,
  request: { tenant: string; id: string | undefined; body: unknown; approver: string },
) {
  const reply = await parts.dispatch.decide(request.tenant, request.id, request.body, request.approver);
  metrics.observeDecision(reply.approval.decision?.decision ?? 'unknown');
  return reply;
}

/** The name an approver or operator key acts under (the endpoint's rule admits keys only). */
const keyName = (caller: Caller) => (caller.kind === 'key' ? caller.name : '');

/**
 * Every endpoint's handler over the daemon's parts. A session's turn (`sessions.dispatch`) runs
 * through its actor, one at a time and in order; everything else reads or changes shared state.
 */
export function endpointHandlers(parts: DaemonParts, metrics: DaemonMetrics): EndpointHandlers {
  const { sessions, surfaceEndpoints: surface, toolsetEndpoints: toolsets, dispatch, views, quotas } = parts;
  return {
    sessionsOpen: (p, body, caller) => sessions.open(p.tenant, body, caller),
    sessionsAssemble: (p, body) => surface.assemble(p.tenant, p.session, body),
    sessionsSearch: (p, body) => surface.search(p.tenant, p.session, body),
    sessionsDescribe: (p, body) => surface.describe(p.tenant, p.session, body),
    sessionsDispatch: (p, body) =>
      sessions.turn(p.tenant, p.session, (descriptor) => dispatch.dispatch(parts.contexts.of(descriptor), body)),
    sessionsClose: (p) => sessions.close(p.tenant, p.session),
    subagentsSpawn: (p, body, caller) => sessions.spawn(p.tenant, body, caller),
    toolsetsPut: (p, body) => toolsets.put(p.tenant, body),
    toolsetsDelete: (p, body) => toolsets.delete(p.tenant, body),
    mcpAttach: (p, body) => toolsets.attach(p.tenant, body),
    mcpDetach: (p, body) => toolsets.detach(p.tenant, body),
    approvalsList: (p, body) => dispatch.list(p.tenant, body),
    // The decision is recorded under the approver key's name.
    approvalsDecide: (p, body, caller) =>
      decideHeldCall(parts, metrics, { tenant: p.tenant, id: p.id, body, approver: keyName(caller) }),
    approvalsGet: (p) => dispatch.get(p.tenant, p.id),
    sessionsList: (p, body, caller) => views.sessionsList(p.tenant, body, visibleOwner(caller)),
    sessionsShow: (p) => views.sessionShow(p.tenant, p.session),
    toolsetsList: (p) => views.toolsetsList(p.tenant),
    auditRecent: (p, body) => views.auditRecent(p.tenant, body),
    tenantShow: async (p) => ({ ok: true as const, tenant: p.tenant, quotas: await quotas.report(p.tenant) }),
    toolsetsDiff: (p, body) => parts.vettingEndpoints.diff(p.tenant, body),
    toolsetsAccept: (p, body, caller) => parts.vettingEndpoints.accept(p.tenant, body, keyName(caller)),
  };
}
