import { z } from 'zod';
import { ConsoleConfigSchema } from '../console/console-config';

/** `scheme://host[:port]` exactly as a browser sends it in `Origin` (no path, no trailing slash). */
const OriginSchema = z.string().refine((value) => {
  try {
    return new URL(value).origin === value;
  } catch {
    return false;
  }
}, 'an origin as browsers send it: scheme://host[:port], no path or trailing slash');

/**
 * The HTTP listener: the MCP endpoint (`/mcp`), Prometheus metrics (`/metrics`), `/healthz`,
 * `/readyz`, and the limits of its edge (docs/security.md, "HTTP limits"). The defaults protect a
 * daemon shared by many tenants; every MCP-session cap counts this replica's sessions (an MCP
 * session lives on the replica that opened it).
 */
export const HttpConfigSchema = z
  .object({
    enabled: z.boolean().default(true),
    /** Interface to listen on; `0.0.0.0` in a container behind a Service. */
    host: z.string().min(1).default('127.0.0.1'),
    /** TCP port; 0 picks a free one (tests). */
    port: z.number().int().min(0).max(65_535).default(8420),
    /**
     * An MCP session with no request for this long is ended (and a session its API key opened
     * is closed); its client must initialize again. Clients that never send DELETE leave
     * nothing behind.
     */
    mcpIdleMs: z.number().int().min(1000).max(86_400_000).default(1_800_000),
    /**
     * How long an MCP `tools/call` whose call was held for a person stays open for the outcome:
     * the call's result once approved and run, or the denial. 0 answers at once (the held call's
     * id, as before). Below an MCP client's usual 60 s request timeout; a client that sends a
     * progress token is told every 5 s that the call still waits, and may wait longer.
     */
    heldCallWaitMs: z.number().int().min(0).max(3_600_000).default(50_000),
    /**
     * An MCP session whose client is gone — no open stream (no GET event stream, no request in
     * flight) and no request for this long — is ended like an idle one. Live clients keep their
     * event stream open, so only `mcpIdleMs` applies to them.
     */
    mcpAbandonedMs: z.number().int().min(1000).max(86_400_000).default(60_000),
    /**
     * Browser origins allowed to call the listener (`Origin` header), besides the listener's own
     * loopback origins. A request without `Origin` (not a browser) is not affected.
     */
    allowedOrigins: z.array(OriginSchema).max(1000).default([]),
    /** The request line and headers must arrive within this long. */
    headersTimeoutMs: z.number().int().min(100).max(300_000).default(10_000),
    /** The whole request, body included, must arrive within this long (not the response: streams stay open). */
    requestTimeoutMs: z.number().int().min(100).max(3_600_000).default(30_000),
    /** A request body that sends nothing for this long is refused (408). */
    bodyIdleTimeoutMs: z.number().int().min(100).max(300_000).default(10_000),
    /** Open TCP connections from one remote address; 0 for no cap (behind a proxy, cap at the proxy). */
    maxConnectionsPerAddress: z.number().int().min(0).max(1_000_000).default(512),
    /** MCP sessions this replica opened that are still open (wherever they are served), all tenants together. */
    maxMcpSessions: z.number().int().min(1).max(1_000_000).default(10_000),
    /** MCP sessions of one tenant, all replicas together (counted in Redis). */
    maxMcpSessionsPerTenant: z.number().int().min(1).max(1_000_000).default(1_000),
    /** MCP sessions opened with one credential (session token or API key), all replicas together (counted in Redis). */
    maxMcpSessionsPerCredential: z.number().int().min(1).max(1_000_000).default(100),
    /** The web console for approvers and operators under `/console` (docs/console.md). */
    console: ConsoleConfigSchema.prefault({}),
  })
  .strict()
  .superRefine((http, context) => {
    // Node refuses a headers timeout longer than the request timeout; say so with the key's path.
    if (http.headersTimeoutMs > http.requestTimeoutMs)
      context.addIssue({
        code: 'custom',
        path: ['headersTimeoutMs'],
        message: `at most requestTimeoutMs (${http.requestTimeoutMs})`,
      });
  });
export type HttpConfig = z.infer<typeof HttpConfigSchema>;
