import { EDGE_ERROR_CODES, RPC_CODES, type Refusal } from './edge-refusal';

/** Caps on MCP sessions counted in this replica's memory (`http.*` keys of the same names). */
export interface McpSessionLimits {
  readonly maxMcpSessions: number;
  readonly maxMcpSessionsPerTenant: number;
  readonly maxMcpSessionsPerCredential: number;
}

/** A slot held for one MCP session; `release()` gives it back (idempotent). */
export interface McpSessionSlot {
  release(): void;
}

/**
 * Counts this replica's MCP sessions per credential, per tenant and in all, and hands out a slot
 * only while all three are under their caps. A slot is taken before the session is opened and
 * given back when it ends (or fails to open), so concurrent initializes cannot overshoot a cap.
 * The per-credential cap is the one that keeps a single token from filling the replica: without
 * it one credential took all 10,000 sessions and every other tenant got 503.
 */
export class McpSessionQuotas {
  readonly #limits: McpSessionLimits;
  readonly #byCredential = new Map<string, number>();
  readonly #byTenant = new Map<string, number>();
  #total = 0;

  constructor(limits: McpSessionLimits) {
    this.#limits = limits;
  }

  /** A slot for a new session of `tenant` opened with `credential` (a digest), or the refusal. */
  take(tenant: string, credential: string): McpSessionSlot | Refusal {
    const limits = this.#limits;
    if ((this.#byCredential.get(credential) ?? 0) >= limits.maxMcpSessionsPerCredential)
      return quotaRefusal(
        'http.maxMcpSessionsPerCredential',
        limits.maxMcpSessionsPerCredential,
        'MCP sessions are open with this credential on this replica',
      );
    if ((this.#byTenant.get(tenant) ?? 0) >= limits.maxMcpSessionsPerTenant)
      return quotaRefusal(
        'http.maxMcpSessionsPerTenant',
        limits.maxMcpSessionsPerTenant,
        'MCP sessions of this tenant are open on this replica',
      );
    if (this.#total >= limits.maxMcpSessions)
      return {
        status: 503,
        rpc: RPC_CODES.INTERNAL_ERROR,
        code: EDGE_ERROR_CODES.UNAVAILABLE,
        message: 'too many MCP sessions on this replica; retry on another.',
      };
    bump(this.#byCredential, credential, 1);
    bump(this.#byTenant, tenant, 1);
    this.#total += 1;
    let held = true;
    return {
      release: () => {
        if (!held) return;
        held = false;
        bump(this.#byCredential, credential, -1);
        bump(this.#byTenant, tenant, -1);
        this.#total -= 1;
      },
    };
  }
}

/** Whether `take` refused. */
export function isRefusal(value: McpSessionSlot | Refusal): value is Refusal {
  return 'status' in value;
}

export function quotaRefusal(quota: string, limit: number, what: string): Refusal {
  return {
    status: 429,
    rpc: RPC_CODES.QUOTA,
    code: EDGE_ERROR_CODES.QUOTA_EXCEEDED,
    message: `quota '${quota}' reached: ${limit} ${what}. End one (DELETE /mcp) or wait until an idle one expires.`,
    data: { quota, limit },
  };
}

function bump(counts: Map<string, number>, key: string, by: number): void {
  const next = (counts.get(key) ?? 0) + by;
  if (next <= 0) counts.delete(key);
  else counts.set(key, next);
}
