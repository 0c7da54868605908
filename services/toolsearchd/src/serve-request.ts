import { ErrorCode, JSONCodec, NatsError, type Msg, type Service } from 'nats';
import type { Logger } from 'pino';
import {
  ENDPOINTS,
  errorReply,
  subjectPattern,
  type EndpointName,
  parseSubject,
  TenantIdSchema,
  WIRE_ERROR_CODES,
  type EndpointDescriptor,
  type SubjectParams,
} from '@toolsearch/proto';
import { HeldRefusals } from './held-refusals';
import { McpUnreachableError } from './mcp-pool.adapter';
import { bearerOf } from './identity/credentials';
import { assertJsonDepth, assertPayloadSize, LimitExceededError } from './json-limits';
import { isStoreUnavailable } from './store-errors';

const codec = JSONCodec<unknown>();

/** A request the caller got wrong, or a state it asked about that does not exist. */
export class RequestError extends Error {
  /**
   * Whether the refusal may be held until the tenant's requests-per-second window turns
   * (held-refusals.ts): true only of a refusal that a retry in the next window can pass.
   */
  readonly holdUntilWindow: boolean = false;

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the daemon knows of a request besides its payload. */
export interface RequestEnvelope {
  /** The bearer secret of its `Authorization` header, if any. */
  readonly bearer: string | undefined;
  /** The size of its payload as sent, in bytes (what a request waiting for its turn holds on to). */
  readonly bytes: number;
}

/**
 * An endpoint's handler: the subject's tokens (tenant validated), the decoded payload, and the
 * request's credential (verified by the `Authority` guard that wraps every handler).
 */
export type Handler = (
  params: SubjectParams & { tenant: string },
  payload: unknown,
  request: RequestEnvelope,
) => Promise<unknown>;

function firstIssue(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
  return `${where}${issue?.message ?? 'invalid request'}`;
}

/** Validates a payload against a contract schema; a mismatch is the caller's `BAD_REQUEST`. */
export function parse<T>(
  schema: {
    safeParse(
      value: unknown,
    ):
      | { success: true; data: T }
      | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
  },
  value: unknown,
): T {
  const result = schema.safeParse(value);
  if (!result.success) throw new RequestError(WIRE_ERROR_CODES.BAD_REQUEST, firstIssue(result.error));
  return result.data;
}

export interface ServeOptions {
  readonly maxPayloadBytes: number;
  /** How deep the payload's arrays and objects may nest (`limits.maxJsonDepth`), checked before parsing. */
  readonly maxJsonDepth: number;
  readonly log: Logger;
  /** Told about every answered request: endpoint name, `ok` or the error code, seconds taken. */
  readonly observe?: (endpoint: string, outcome: string, seconds: number) => void;
  /**
   * Whether the daemon may answer on this reply subject for this tenant. NATS does not check a
   * request's reply subject against its sender's permissions, and the daemon may publish anywhere:
   * without this check a tenant could have the daemon's answer published on another tenant's
   * subjects or on JetStream's API. A request with a refused (or no) reply subject is not run.
   */
  readonly replyAllowed?: (reply: string, tenant: string) => boolean;
  /**
   * A refusal decided from the subject's tenant (and the endpoint's wire name) alone, before the payload
   * is parsed or the caller verified (a tenant whose requests-per-second window is already full):
   * refusals must cost little, or a tenant flooding past its quota still takes the thread from
   * everyone else.
   */
  readonly refuseEarly?: (tenant: string, endpoint: string) => RequestError | undefined;
  /**
   * How long an early refusal is held before it is sent (until the tenant's quota window turns;
   * held-refusals.ts): a client that retries at once is slowed to its quota's pace. Needs
   * `publish`, which sends a held refusal to its reply subject (the request itself is not kept).
   */
  readonly holdRefusalMs?: () => number;
  readonly publish?: (subject: string, data: Uint8Array) => void;
}

/** Where a reply goes: a request's own `respond`, or a publish to a held refusal's reply subject. */
interface Responder {
  respond(data: Uint8Array): boolean;
}

/**
 * Answers one request at the edge: size limit, tenant token, nesting depth (a linear scan of the
 * bytes, so no parser or walker ever sees a payload deep enough to overflow the stack), JSON, then
 * the handler. Every outcome is a reply — the caller's mistakes with their code, a store that is
 * down as `UNAVAILABLE`, anything else as `INTERNAL` (logged) — and nothing escapes to the process.
 */
export async function serveRequest(
  endpoint: EndpointDescriptor,
  handler: Handler,
  message: Msg,
  options: ServeOptions,
  held?: HeldRefusals<HeldRefusal>,
): Promise<void> {
  const started = performance.now();
  const tenantToken = message.subject.split('.')[2] ?? '';
  if (options.replyAllowed !== undefined && !options.replyAllowed(message.reply ?? '', tenantToken)) {
    options.log.warn(
      { endpoint: endpoint.name, tenant: tenantToken, reply: (message.reply ?? '').slice(0, 120) },
      "request refused: its reply subject is not one of the tenant's inboxes (nothing was run)",
    );
    options.observe?.(endpoint.name, 'REPLY_REFUSED', (performance.now() - started) / 1000);
    return;
  }
  const early = options.refuseEarly?.(tenantToken, endpoint.name);
  if (early !== undefined) {
    options.observe?.(endpoint.name, early.code, (performance.now() - started) / 1000);
    // The request latency metric counts the daemon's work, not the hold.
    sendReply(message, encodedRefusal(early), options, held && { tenant: tenantToken, refusals: held });
    return;
  }
  let reply: unknown;
  let holdable = false;
  try {
    assertPayloadSize(message.data.length, options.maxPayloadBytes);
    const params = parseSubject(endpoint.template, message.subject);
    if (params === undefined || !TenantIdSchema.safeParse(params.tenant).success) {
      throw new RequestError(
        WIRE_ERROR_CODES.BAD_REQUEST,
        'the tenant id in the subject is not valid (1–63 of a-z, 0-9 and -).',
      );
    }
    let body: unknown = {};
    if (message.data.length > 0) {
      assertJsonDepth(message.data, options.maxJsonDepth);
      try {
        body = codec.decode(message.data);
      } catch {
        throw new RequestError(WIRE_ERROR_CODES.BAD_REQUEST, 'the payload is not valid JSON.');
      }
    }
    reply = await handler(params as SubjectParams & { tenant: string }, body, {
      bearer: bearerOf(message.headers),
      bytes: message.data.length,
    });
  } catch (error) {
    if (error instanceof RequestError || error instanceof LimitExceededError) {
      reply = errorReply(error.code, error.message);
      holdable = error instanceof RequestError && error.holdUntilWindow;
    } else if (error instanceof McpUnreachableError)
      reply = errorReply(WIRE_ERROR_CODES.MCP_UNREACHABLE, error.message);
    else if (isStoreUnavailable(error))
      reply = errorReply(WIRE_ERROR_CODES.UNAVAILABLE, 'a store the daemon needs is not answering; retry shortly.');
    else {
      options.log.error({ err: (error as Error).message, endpoint: endpoint.name }, 'request failed');
      reply = errorReply(WIRE_ERROR_CODES.INTERNAL, 'the daemon failed to answer this request; it has been logged.');
    }
  }
  const outcome = (reply as { ok?: unknown; error?: { code?: unknown } } | undefined)?.ok === false;
  options.observe?.(
    endpoint.name,
    outcome ? String((reply as { error: { code: unknown } }).error.code) : 'ok',
    (performance.now() - started) / 1000,
  );
  // A request past the tenant's requests per second is refused like an early refusal: held.
  sendReply(
    message,
    codec.encode(reply),
    options,
    holdable ? held && { tenant: tenantToken, refusals: held } : undefined,
  );
}

/** Sends a reply now (with the turn's other replies), or holds it as the tenant's refusal when `hold` is given. */
function sendReply(
  message: Msg,
  data: Uint8Array,
  options: ServeOptions,
  hold: { tenant: string; refusals: HeldRefusals<HeldRefusal> } | undefined,
): void {
  if (hold !== undefined && message.reply !== undefined)
    hold.refusals.hold(hold.tenant, { reply: message.reply, data }, options.holdRefusalMs?.() ?? 0);
  else replies.send(message, data, options.log);
}

/** Early refusals are the same for every request of a tenant's second: encoded once each. */
const encodedRefusals = new WeakMap<RequestError, Uint8Array>();
function encodedRefusal(refusal: RequestError): Uint8Array {
  let data = encodedRefusals.get(refusal);
  if (data === undefined)
    encodedRefusals.set(refusal, (data = codec.encode(errorReply(refusal.code, refusal.message))));
  return data;
}

/**
 * Replies made in one turn of the event loop, sent together. nats.js writes its outbound buffer
 * to the socket in a microtask after the first message put in it; handlers finish in microtasks
 * of their own, so most replies went out in a socket write each — 15 % of the daemon's time while
 * a tenant flooded it with requests its quota refused. Held until the loop's check phase
 * (`setImmediate`), which follows the I/O that brought the requests, they leave in one write, in
 * the same turn of the loop: no reply waits for other work.
 */
class ReplyBatch {
  #held: { message: Responder; data: Uint8Array; log: Logger }[] = [];

  send(message: Responder, data: Uint8Array, log: Logger): void {
    if (this.#held.length === 0) setImmediate(() => this.#flush());
    this.#held.push({ message, data, log });
  }

  #flush(): void {
    const held = this.#held;
    this.#held = [];
    for (const { message, data, log } of held) respond(message, data, log);
  }
}
const replies = new ReplyBatch();
/** An early refusal waiting for its tenant's window to turn: its reply subject and its bytes. */
interface HeldRefusal {
  readonly reply: string;
  readonly data: Uint8Array;
}

/**
 * Sends a reply. One larger than the server's `max_payload` (a search echoing a huge query, say)
 * cannot be sent at all, and the caller would wait for its timeout: it gets PAYLOAD_TOO_LARGE.
 */
function respond(message: Responder, data: Uint8Array, log: Logger): void {
  try {
    message.respond(data);
  } catch (error) {
    if (error instanceof NatsError && error.code === ErrorCode.MaxPayloadExceeded) {
      const refusal = errorReply(
        WIRE_ERROR_CODES.PAYLOAD_TOO_LARGE,
        `the reply would be ${data.length} bytes, more than the NATS server's max_payload; ask for less at once (shorter or fewer queries, names or calls).`,
      );
      respond(message, codec.encode(refusal), log);
    } else log.warn({ err: (error as Error).message }, 'could not send a reply');
  }
}

/**
 * Adds every endpoint of the contract to the service, each with its handler. The handler table
 * is keyed by endpoint, so a contract endpoint without a handler does not compile. Returns what
 * sends the early refusals still held (for the daemon's `close()`), resolving once they are out.
 */
export function addEndpoints(
  service: Service,
  handlers: Record<EndpointName, Handler>,
  options: ServeOptions,
): { releaseHeldRefusals(): Promise<void> } {
  const { publish, holdRefusalMs } = options;
  // Refusals are held only where they can be sent later without the request (to its reply subject).
  const held =
    publish === undefined || holdRefusalMs === undefined
      ? undefined
      : new HeldRefusals<HeldRefusal>({
          send: ({ reply, data }) =>
            replies.send({ respond: (bytes) => (publish(reply, bytes), true) }, data, options.log),
        });
  for (const [key, endpoint] of Object.entries(ENDPOINTS) as [EndpointName, EndpointDescriptor][]) {
    const handler = handlers[key];
    service.addEndpoint(endpoint.name.replace(/\./g, '_'), {
      subject: subjectPattern(endpoint.template),
      handler: (error, message) => {
        if (error) return;
        void serveRequest(endpoint, handler, message, options, held);
      },
      metadata: { purpose: endpoint.purpose },
    });
  }
  return {
    releaseHeldRefusals: async () => {
      held?.close();
      // The replies leave in the loop's next check phase: before the connection stops publishing.
      await new Promise((done) => setImmediate(done));
    },
  };
}
