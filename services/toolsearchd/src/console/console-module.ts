import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import type { Approval } from '@toolsearch/proto';
import type { DaemonConfig } from '../config';
import type { DispatchService } from '../dispatch/dispatch-service';
import type { CredentialBook } from '../identity/credentials';
import type { OperatorViews } from '../operator-views';
import { QuotaExceededError, type QuotaGate } from '../quotas';
import { heldReadWeight } from '../request-weights';
import { RequestError } from '../serve-request';
import { ConsoleError } from './console-errors';
import type { RedisClient } from '../redis-client';
import type { ToolsetRegistry } from '../registry.adapter';
import type { SessionStore } from '../session-store.adapter';
import type { SurfaceEndpoints } from '../surface-endpoints';
import type { ConsoleBackend } from './console-backend';
import { WebConsole } from './web-console';

/**
 * Builds the web console from the daemon's own parts (one call in the composition root). Each
 * part is asked for when a page needs it, so the console can be built with the HTTP listener,
 * before the NATS endpoints are added.
 */
export function createConsole(deps: {
  config: DaemonConfig;
  credentials: CredentialBook;
  nc: NatsConnection;
  redis: RedisClient;
  store: SessionStore;
  registry: ToolsetRegistry;
  dispatch: () => DispatchService;
  views: () => OperatorViews;
  surface: () => SurfaceEndpoints;
  quotas: () => QuotaGate;
  /** The daemon's `approvals.<id>.decide` handler body (decision and its metric), for one approver. */
  decide: (tenant: string, id: string, body: unknown, approver: string) => Promise<{ approval: Approval }>;
  log: Logger;
}): WebConsole {
  const backend: ConsoleBackend = {
    credentials: deps.credentials,
    nc: deps.nc,
    admit: async (tenant, weight) => {
      try {
        await deps.quotas().admit(tenant, weight);
      } catch (error) {
        if (error instanceof QuotaExceededError) throw new ConsoleError('RATE_LIMITED', error.message);
        if (error instanceof RequestError) throw new ConsoleError('UNAVAILABLE', error.message);
        throw error;
      }
    },
    charge: (tenant, weight) => deps.quotas().charge(tenant, weight),
    admitDecision: (tenant) => {
      try {
        deps.quotas().admitDecision(tenant);
      } catch (error) {
        if (error instanceof QuotaExceededError) throw new ConsoleError('RATE_LIMITED', error.message);
        throw error;
      }
    },
    heldCalls: async (tenant, limit) => {
      const { approvals, read } = await deps.dispatch().approvals.list(tenant, limit);
      deps.quotas().charge(tenant, heldReadWeight(read));
      return approvals;
    },
    heldIds: (tenant) => deps.dispatch().approvals.heldIds(tenant),
    auditHead: (tenant) => deps.dispatch().audit.headId(tenant),
    heldCall: (tenant, id) => deps.dispatch().approvals.get(tenant, id),
    decide: deps.decide,
    policy: (tenant) => deps.dispatch().policyOf(tenant),
    session: (tenant, id) => deps.store.load(tenant, id),
    toolsets: (tenant) => deps.registry.toolsets(tenant),
    get views() {
      return deps.views();
    },
    search: (tenant, session, body) => deps.surface().search(tenant, session, body),
    quotas: (tenant) => deps.quotas().report(tenant),
  };
  return new WebConsole({
    backend,
    redis: deps.redis,
    prefix: deps.config.namespace.redisPrefix,
    config: deps.config.http.console,
    bodyIdleTimeoutMs: deps.config.http.bodyIdleTimeoutMs,
    log: deps.log,
  });
}
