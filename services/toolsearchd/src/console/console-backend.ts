import type { NatsConnection } from 'nats';
import type { Toolset } from '@toolsearch/catalog';
import type { Approval } from '@toolsearch/proto';
import type { CredentialBook } from '../identity/credentials';
import type { OperatorViews } from '../operator-views';
import type { TenantPolicy } from '../policy-config';
import type { QuotaReport } from '../quotas';
import type { SessionDescriptor } from '../session-store.adapter';
import type { SurfaceEndpoints } from '../surface-endpoints';

/**
 * What the console reads and does, each through the daemon's own code for the NATS endpoint of
 * the same name, so a page can never disagree with `approvals.list`, `approvals.<id>.decide`,
 * `sessions.list`, `sessions.<s>.search` (with `explain`), `audit.recent` or `tenant.show`.
 */
export interface ConsoleBackend {
  /** The configured credential keys (sign-in checks a key exactly as a NATS request's is checked). */
  readonly credentials: CredentialBook;
  /** The daemon's connection: live pages follow the tenant's session events on it. */
  readonly nc: NatsConnection;
  /**
   * Counts a page (at `weight`) against the tenant's requests per second, as its NATS requests
   * are counted; throws `ConsoleError` RATE_LIMITED when the tenant's second is used up.
   */
  admit(tenant: string, weight: number): Promise<void>;
  /** Counts work against the tenant's requests per second without refusing it (a live stream). */
  charge(tenant: string, weight: number): void;
  /**
   * Counts an approver's decision, refused (`ConsoleError` RATE_LIMITED) only past the headroom
   * the NATS endpoint allows (`DECISIONS`).
   */
  admitDecision(tenant: string): void;
  /** The tenant's undecided held calls, oldest first (`approvals.list`; the reads are charged to the tenant). */
  heldCalls(tenant: string, limit: number): Promise<Approval[]>;
  /** The ids of the tenant's held calls, oldest first (one cheap read, to notice changes). */
  heldIds(tenant: string): Promise<string[]>;
  /** The id of the tenant's newest audit record ('' when none): one cheap read, to notice changes. */
  auditHead(tenant: string): Promise<string>;
  /** One held call with its decision and result (`approvals.<id>.get`); undefined when unknown. */
  heldCall(tenant: string, id: string): Promise<Approval | undefined>;
  /**
   * `approvals.<id>.decide` as the NATS endpoint runs it, for the approver named by the signed-in
   * key: bound to the tool and argument digest, first decision wins, refused after expiry. Throws
   * the endpoint's `RequestError` (code ALREADY_DECIDED, DECISION_MISMATCH, FORBIDDEN, …).
   */
  decide(tenant: string, id: string, body: unknown, approver: string): Promise<{ approval: Approval }>;
  /** The tenant's call policy (its audit redaction patterns apply to what the console shows). */
  policy(tenant: string): TenantPolicy;
  /** A session's descriptor, or undefined when it is closed. */
  session(tenant: string, id: string): Promise<SessionDescriptor | undefined>;
  /** The tenant's toolsets as the registry holds them now. */
  toolsets(tenant: string): ReadonlyMap<string, { toolset: Toolset; revision: number }>;
  /** The operator views (`sessions.list/show`, `toolsets.list`, `audit.recent`). */
  readonly views: OperatorViews;
  /** `sessions.<s>.search` over the session's surface (the console asks with `explain: true`). */
  search(tenant: string, session: string, body: unknown): ReturnType<SurfaceEndpoints['search']>;
  /** The tenant's quotas and their usage (`tenant.show`). */
  quotas(tenant: string): Promise<QuotaReport>;
}
