import type { ServerResponse } from 'node:http';
import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { ActivityEventSchema, EVENTS, ResultEventSchema } from '@toolsearch/proto';
import { ConsoleError } from './console-errors';
import type { SignedIn } from './console-sessions';
import type { StoreWatch } from './store-watch';

const codec = JSONCodec<unknown>();
/** Live streams one signed-in key may hold open on a replica (a few tabs), so one cannot take all. */
const MAX_STREAMS_PER_SIGN_IN = 16;
/** A comment line this often keeps proxies from closing an idle stream, and re-checks the sign-in. */
const HEARTBEAT_MS = 15_000;

/** A tenant's event subject with every session: `toolsearch.v1.<tenant>.sessions.*.evt.<kind>`. */
function tenantEvents(template: string, tenant: string): string {
  return template.replace('{tenant}', tenant).replace('{session}', '*');
}

/**
 * Live updates for console pages, as Server-Sent Events fed by the daemon's NATS events of the
 * signed-in tenant only (its subjects carry the tenant, so no other tenant's event can reach the
 * stream), and by a watch on the tenant's held calls in the store (holds publish no event). Approvers get `approvals` (a call was held, or a held call finished: reload the list);
 * operators also get `activity` (each call's start and finish, under the real tool's name).
 * Events are validated against the contract before they are passed on.
 */
export class LiveStreams {
  readonly #nc: NatsConnection;
  readonly #watches: { readonly held: StoreWatch; readonly audit: StoreWatch };
  readonly #max: number;
  #open = 0;
  readonly #perSignIn = new Map<string, number>();

  constructor(nc: NatsConnection, watches: { held: StoreWatch; audit: StoreWatch }, maxStreams: number) {
    this.#nc = nc;
    this.#watches = watches;
    this.#max = maxStreams;
  }

  /** Streams events to `res` until the client goes away or `stillSignedIn` says no. */
  async open(res: ServerResponse, session: SignedIn, stillSignedIn: () => Promise<boolean>): Promise<void> {
    const who = `${session.tenant}/${session.name}`;
    const mine = this.#perSignIn.get(who) ?? 0;
    if (this.#open >= this.#max || mine >= MAX_STREAMS_PER_SIGN_IN)
      throw new ConsoleError('TOO_MANY_STREAMS', 'too many live pages are open; close some tabs or reload later.');
    this.#open += 1;
    this.#perSignIn.set(who, mine + 1);
    let ready = false;
    const send = (event: string, data: unknown): void => {
      if (ready) res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    };
    const operator = session.roles.has('operator');
    const subscriptions: Subscription[] = [
      this.#nc.subscribe(tenantEvents(EVENTS.sessionActivity.template, session.tenant), {
        callback: (error, message) => {
          if (error) return;
          const event = ActivityEventSchema.safeParse(safeDecode(message.data));
          if (!event.success || event.data.tenant !== session.tenant) return;
          if (operator) send('activity', event.data);
        },
      }),
      this.#nc.subscribe(tenantEvents(EVENTS.sessionResult.template, session.tenant), {
        callback: (error, message) => {
          if (error) return;
          const event = ResultEventSchema.safeParse(safeDecode(message.data));
          if (!event.success || event.data.tenant !== session.tenant) return;
          send('approvals', { id: event.data.approval_id });
        },
      }),
    ];
    let unwatch = (): void => undefined;
    let closed = false;
    const close = (): void => {
      if (closed) return;
      closed = true;
      this.#open -= 1;
      const left = (this.#perSignIn.get(who) ?? 1) - 1;
      if (left > 0) this.#perSignIn.set(who, left);
      else this.#perSignIn.delete(who);
      clearInterval(heartbeat);
      for (const subscription of subscriptions) subscription.unsubscribe();
      unwatch();
      res.end();
    };
    const heartbeat = setInterval(() => {
      if (ready) res.write(': still here\n\n');
      stillSignedIn().then(
        (yes) => {
          if (!yes) close();
        },
        () => close(),
      );
    }, HEARTBEAT_MS);
    res.on('close', close);
    // The page may rely on the stream once it opens: the NATS server knows the subscriptions and
    // the held calls the page shows are the watch's starting point by then.
    const [, ...stops] = await Promise.all([
      this.#nc.flush().catch(() => undefined),
      this.#watches.held.watch(session.tenant, () => send('approvals', {})),
      ...(operator ? [this.#watches.audit.watch(session.tenant, () => send('audit', {}))] : []),
    ]);
    unwatch = () => stops.forEach((stop) => stop());
    if (closed) return unwatch();
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 3000\n\n');
    ready = true;
  }

  /** Streams open now on this replica. */
  get size(): number {
    return this.#open;
  }
}

function safeDecode(data: Uint8Array): unknown {
  try {
    return codec.decode(data);
  } catch {
    return undefined;
  }
}
