import type { Logger } from 'pino';
import type { HttpConfig } from './http-config';
import type { McpEventStreams } from './mcp-event-streams';
import type { McpSessionSlot } from './mcp-session-quotas';
import type { McpSessionRecord, McpSessionStore } from './mcp-session-store';

/** Sessions looked at per tenant and sweep: a backlog is worked off over the next sweeps. */
const PER_SWEEP = 200;

/**
 * Ends quiet MCP sessions, whichever replica opened them: those without a request for
 * `mcpIdleMs`, and sooner — after `mcpAbandonedMs` — those with no response open on any replica
 * (their client is gone: the MCP Inspector, a killed process that never sent DELETE), so a
 * vanished client does not keep its session, or its API key's session, for 30 minutes. Every
 * replica sweeps; the store lets exactly one of them end each session.
 *
 * It walks the tenants the config names and those this replica has served. It also gives back
 * this replica's slots (`http.maxMcpSessions`) of sessions ended elsewhere, and ends its event
 * streams of sessions that are gone.
 */
export class McpSessionSweep {
  readonly #tenants: Set<string>;
  readonly #opened = new Map<string, McpSessionSlot>();
  readonly #timer: NodeJS.Timeout;
  #running = false;

  constructor(
    private readonly deps: {
      store: McpSessionStore;
      streams: McpEventStreams;
      limits: Pick<HttpConfig, 'mcpIdleMs' | 'mcpAbandonedMs'>;
      tenants: readonly string[];
      end: (record: McpSessionRecord) => Promise<void>;
      log: Logger;
    },
  ) {
    this.#tenants = new Set(deps.tenants);
    const shortest = Math.min(deps.limits.mcpIdleMs, deps.limits.mcpAbandonedMs);
    this.#timer = setInterval(() => void this.#run(), Math.min(Math.max(shortest / 4, 250), 60_000));
    this.#timer.unref();
  }

  /** Sessions this replica opened that have not ended as far as it knows. */
  get opened(): number {
    return this.#opened.size;
  }

  /** A tenant whose sessions this replica has served: its quiet ones are swept here too. */
  saw(tenant: string): void {
    this.#tenants.add(tenant);
  }

  /** A session this replica opens, holding one of its slots until the session ends. */
  opening(record: McpSessionRecord, slot: McpSessionSlot): void {
    this.#tenants.add(record.tenant);
    this.#opened.set(record.id, slot);
  }

  ended(id: string): void {
    this.#opened.get(id)?.release();
    this.#opened.delete(id);
  }

  async #run(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    try {
      const { mcpIdleMs, mcpAbandonedMs } = this.deps.limits;
      const quiet = Math.min(mcpIdleMs, mcpAbandonedMs);
      const now = Date.now();
      for (const tenant of this.#tenants) {
        for (const record of await this.deps.store.quiet(tenant, quiet, PER_SWEEP)) {
          const silent = now - record.lastSeen;
          const reason =
            silent > mcpIdleMs ? 'idle' : record.streams <= 0 && silent > mcpAbandonedMs ? 'abandoned' : undefined;
          if (reason === undefined) continue;
          this.deps.log.debug({ tenant, reason }, 'ending a quiet MCP session');
          await this.deps.end(record);
        }
      }
      for (const id of [...this.#opened.keys()]) if (!(await this.deps.store.exists(id))) this.ended(id);
      await this.deps.streams.prune((id) => this.deps.store.exists(id));
    } catch (error) {
      this.deps.log.warn({ err: (error as Error).message }, 'MCP session sweep failed; retrying at the next');
    } finally {
      this.#running = false;
    }
  }

  stop(): void {
    clearInterval(this.#timer);
  }
}
