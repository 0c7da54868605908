import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { AuditLog } from '../dispatch/audit.adapter';
import type { VetToolset } from '../registry.adapter';
import { DefinitionGate } from './definition-gate';
import { tenantVetting, type VettingConfig } from './vetting-config';
import { VettingStore } from './vetting-store.adapter';
import type { RedisClient } from '../redis-client';

/** What the daemon wires: the gate the registry stores through, and its store (for the endpoints). */
export interface Vetting {
  readonly gate: DefinitionGate;
  readonly store: VettingStore;
  /** For `ToolsetRegistry.open`. */
  readonly vet: VetToolset;
}

/** Builds the vetting of every tenant from the config (`vetting`, `tenants.<id>.vetting`). */
export function createVetting(deps: {
  redis: RedisClient;
  nc: NatsConnection;
  log: Logger;
  /** Told after each toolset: milliseconds in the scanner, and in the whole vetting. */
  observe?: (scanMs: number, totalMs: number) => void;
  config: {
    vetting: VettingConfig;
    tenants: Record<string, { vetting?: Partial<VettingConfig> | undefined }>;
    namespace: { redisPrefix: string };
    dispatch: { auditMaxLen: number };
  };
}): Vetting {
  const { redis, nc, log, config, observe } = deps;
  const store = new VettingStore(redis, config.namespace.redisPrefix);
  const gate = new DefinitionGate({
    store,
    audit: new AuditLog(redis, config.namespace.redisPrefix, config.dispatch.auditMaxLen),
    nc,
    vetting: tenantVetting(config),
    log,
    ...(observe !== undefined ? { observe } : {}),
  });
  return { gate, store, vet: (tenant, toolset, current) => gate.vet(tenant, toolset, current) };
}
