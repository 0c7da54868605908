import type { DaemonParts } from '../composition';
import { createConsole } from '../console/console-module';
import { decideHeldCall } from '../endpoint-handlers';
import { mcpKeyCaller } from '../identity/callers';
import type { CredentialBook } from '../identity/credentials';
import { FrontDoorSessions } from './front-door-sessions';
import { HttpFrontend } from './http-server';
import { McpFrontDoor } from './mcp-front-door';
import type { DaemonMetrics } from './metrics';

/** The daemon's HTTP listener, serving. */
export interface HttpListener {
  readonly frontDoor: McpFrontDoor;
  readonly http: HttpFrontend;
  /** `http://host:port`. */
  readonly address: string;
}

/**
 * Starts the HTTP listener: the MCP endpoint (whose `tools/call` is a turn of the session, run by
 * its actor like a NATS dispatch), metrics and health. A port that is taken fails the start.
 */
export async function startHttp(
  parts: DaemonParts,
  metrics: DaemonMetrics,
  credentials: CredentialBook,
): Promise<HttpListener> {
  const { config, sessions, nc, log } = parts;
  const backend = new FrontDoorSessions({
    apiKeys: config.tenants,
    resolveToken: (token) => parts.store.resolveToken(token),
    open: async (tenant, body, keyName) => (await sessions.open(tenant, body, mcpKeyCaller(keyName))).session.id,
    close: (tenant, session) => sessions.close(tenant, session).then(() => undefined),
    descriptor: (tenant, session) => sessions.descriptor(tenant, session),
    assembly: (tenant, session) => parts.surfaceEndpoints.assembly(tenant, session, 'mcp'),
    dispatch: (tenant, session, calls) =>
      sessions.turn(tenant, session, (descriptor) =>
        parts.dispatch.dispatcher.dispatch(parts.contexts.of(descriptor), calls),
      ),
    approval: (tenant, id) => parts.dispatch.approvals.get(tenant, id),
    heldCallWaitMs: config.http.heldCallWaitMs,
  });
  const frontDoor = new McpFrontDoor({
    backend,
    nc,
    redis: parts.redis,
    prefix: config.namespace.redisPrefix,
    tenants: Object.keys(config.tenants),
    log,
    maxBodyBytes: config.limits.maxPayloadBytes,
    maxJsonDepth: config.limits.maxJsonDepth,
    limits: config.http,
    observe: (method, outcome) => metrics.observeMcpRequest(method, outcome),
    admit: (tenant, weight, bytes) => parts.quotas.admit(tenant, weight, { bytes }),
  });
  const http = new HttpFrontend({
    frontDoor,
    metrics,
    readiness: () => ({ ...parts.watch.readiness(), redis: parts.redis.status === 'ready' }),
    log,
    limits: config.http,
    ...(config.http.console.enabled ? { console: webConsole(parts, metrics, credentials) } : {}),
  });
  const { host, port } = await http.listen(config.http.host, config.http.port);
  const address = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log.info({ http: address }, 'HTTP listening (/mcp, /console, /metrics, /healthz, /readyz)');
  return { frontDoor, http, address };
}

/** The web console, on the same parts as the NATS endpoints it mirrors. */
function webConsole(parts: DaemonParts, metrics: DaemonMetrics, credentials: CredentialBook) {
  return createConsole({
    config: parts.config,
    credentials,
    nc: parts.nc,
    redis: parts.redis,
    store: parts.store,
    registry: parts.registry,
    dispatch: () => parts.dispatch,
    views: () => parts.views,
    surface: () => parts.surfaceEndpoints,
    quotas: () => parts.quotas,
    decide: (tenant, id, body, approver) => decideHeldCall(parts, metrics, { tenant, id, body, approver }),
    log: parts.log,
  });
}
