import type { ServerResponse } from 'node:http';
import type { NatsConnection, Subscription } from 'nats';
import { EVENTS, subject } from '@toolsearch/proto';

/** A comment line every so often keeps proxies from closing a quiet stream. */
const KEEP_ALIVE_MS = 25_000;

const LIST_CHANGED = `event: message\ndata: ${JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/tools/list_changed',
})}\n\n`;

interface EventStream {
  readonly res: ServerResponse;
  readonly subscription: Subscription;
  readonly keepAlive: NodeJS.Timeout;
}

/**
 * The GET event streams (server-to-client messages) this replica holds, one per MCP session at
 * most. The daemon serves them itself rather than through an SDK transport: whichever replica
 * holds a client's stream subscribes to its toolsearch session's tier event (published once per
 * real change, by whichever replica saw it) and writes `notifications/tools/list_changed`.
 */
export class McpEventStreams {
  readonly #streams = new Map<string, EventStream>();
  readonly #nc: NatsConnection;

  constructor(nc: NatsConnection) {
    this.#nc = nc;
  }

  /** Whether this replica holds the session's stream (a second one is refused: 409, as the SDK does). */
  has(id: string): boolean {
    return this.#streams.has(id);
  }

  get size(): number {
    return this.#streams.size;
  }

  /** Starts the stream on `res`; `onClose` runs once when it ends, whoever ends it. */
  open(id: string, identity: { tenant: string; session: string }, res: ServerResponse, onClose: () => void): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
      'mcp-session-id': id,
    });
    res.flushHeaders();
    const subscription = this.#nc.subscribe(subject(EVENTS.sessionTier.template, identity), {
      callback: (error) => {
        if (error === null && !res.writableEnded) res.write(LIST_CHANGED);
      },
    });
    const keepAlive = setInterval(() => {
      if (!res.writableEnded) res.write(': keep-alive\n\n');
    }, KEEP_ALIVE_MS);
    keepAlive.unref();
    this.#streams.set(id, { res, subscription, keepAlive });
    res.once('close', () => {
      this.#forget(id, res);
      onClose();
    });
  }

  #forget(id: string, res: ServerResponse): void {
    const stream = this.#streams.get(id);
    if (stream?.res !== res) return;
    this.#streams.delete(id);
    clearInterval(stream.keepAlive);
    stream.subscription.unsubscribe();
  }

  /** Ends the session's stream on this replica, if it holds one. */
  end(id: string): void {
    this.#streams.get(id)?.res.end();
  }

  /** Ends the streams of sessions that no longer exist (ended by another replica, or expired). */
  async prune(exists: (id: string) => Promise<boolean>): Promise<void> {
    for (const id of [...this.#streams.keys()]) if (!(await exists(id))) this.end(id);
  }

  /** Ends every stream (on shutdown: the client reopens it on another replica). */
  close(): void {
    for (const id of [...this.#streams.keys()]) this.end(id);
  }
}
