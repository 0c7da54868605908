import type { RedisClient } from '../redis-client';
import { RedisKeys } from '../redis-keys';

/** One trace record: what ran (or was refused), for whom, how long it took and how it ended. */
export interface TraceRecord {
  readonly tenant: string;
  readonly session: string;
  readonly callId: string;
  /** The real tool (model-facing name), never `tool_call`; the name as called when it was unknown. */
  readonly tool: string;
  readonly toolset: string;
  /** sha256 of the canonical arguments ('' when the call never got that far). */
  readonly digest: string;
  readonly durationMs: number;
  readonly retries: number;
  /** `ok`, `pending_approval`, or the error code. */
  readonly outcome: string;
  readonly approvalId: string;
  readonly at: number;
  /** The call's arguments, redacted, when the tenant's audit policy keeps them (audit-detail.ts). */
  readonly arguments?: string;
  /** A summary of the result (redacted JSON, or the error code and message), when kept. */
  readonly result?: string;
  /** Vetting records (`outcome` `vetting:<decision>`): the pinned digest before; `digest` is after. */
  readonly digestBefore?: string;
  /** Vetting records: the finding codes, or who accepted a change. */
  readonly detail?: string;
}

/**
 * The audit log: one Redis stream per tenant (`<prefix>{<tenant>}:audit`), trimmed to about
 * `maxLen` entries. Records of one turn (one tenant's) are written in one round trip.
 */
export class AuditLog {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #maxLen: number;

  constructor(redis: RedisClient, prefix: string, maxLen: number) {
    this.#redis = redis;
    this.#keys = new RedisKeys(prefix);
    this.#maxLen = maxLen;
  }

  key(tenant: string): string {
    return this.#keys.tenant(tenant, 'audit');
  }

  async append(records: readonly TraceRecord[]): Promise<void> {
    if (records.length === 0) return;
    const pipeline = this.#redis.pipeline();
    for (const record of records) {
      pipeline.xadd(
        this.key(record.tenant),
        'MAXLEN',
        '~',
        String(this.#maxLen),
        '*',
        'session',
        record.session,
        'call_id',
        record.callId,
        'tool',
        record.tool,
        'toolset',
        record.toolset,
        'digest',
        record.digest,
        'duration_ms',
        record.durationMs.toFixed(3),
        'retries',
        String(record.retries),
        'outcome',
        record.outcome,
        'approval_id',
        record.approvalId,
        'at',
        String(record.at),
        ...(record.arguments !== undefined ? ['arguments', record.arguments] : []),
        ...(record.result !== undefined ? ['result', record.result] : []),
        ...(record.digestBefore !== undefined ? ['digest_before', record.digestBefore] : []),
        ...(record.detail !== undefined ? ['detail', record.detail] : []),
      );
    }
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error !== null);
    if (failed?.[0]) throw failed[0];
  }

  /** The id of the tenant's newest record ('' when there is none), for watchers of changes. */
  async headId(tenant: string): Promise<string> {
    const [newest] = await this.#redis.xrevrange(this.key(tenant), '+', '-', 'COUNT', 1);
    return newest?.[0] ?? '';
  }

  /** The newest records of a tenant, newest first. */
  async recent(tenant: string, count = 100): Promise<TraceRecord[]> {
    const entries = await this.#redis.xrevrange(this.key(tenant), '+', '-', 'COUNT', count);
    return entries.map(([, fields]) => {
      const value: Record<string, string> = {};
      for (let i = 0; i + 1 < fields.length; i += 2) value[fields[i] ?? ''] = fields[i + 1] ?? '';
      return {
        tenant,
        session: value['session'] ?? '',
        callId: value['call_id'] ?? '',
        tool: value['tool'] ?? '',
        toolset: value['toolset'] ?? '',
        digest: value['digest'] ?? '',
        durationMs: Number(value['duration_ms'] ?? 0),
        retries: Number(value['retries'] ?? 0),
        outcome: value['outcome'] ?? '',
        approvalId: value['approval_id'] ?? '',
        at: Number(value['at'] ?? 0),
        ...(value['arguments'] !== undefined ? { arguments: value['arguments'] } : {}),
        ...(value['result'] !== undefined ? { result: value['result'] } : {}),
        ...(value['digest_before'] !== undefined ? { digestBefore: value['digest_before'] } : {}),
        ...(value['detail'] !== undefined ? { detail: value['detail'] } : {}),
      };
    });
  }
}
