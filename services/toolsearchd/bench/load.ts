/**
 * The load generator's side of bench:daemon: a light request/reply, CPU accounting of the processes
 * that share the machine during a run, and percentiles.
 */
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { headers as natsHeaders, type MsgHdrs, type NatsConnection } from 'nats';

export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** CPU seconds (user + system) a process has used so far; 0 when it cannot be read. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100; // clock ticks of 10 ms
  } catch {
    return 0;
  }
}

/**
 * The pid of the nats-server on this machine that listens on `port` (its command line or config
 * names the port), else of any nats-server; for the CPU split of a run.
 */
export function natsServerPid(port: number): number | undefined {
  let any: number | undefined;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'nats-server') continue;
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.includes(String(port))) return Number(entry);
      // The default port, or one set in a config file: the first server without -p.
      if (!args.includes('-p') && !args.includes('--port')) any ??= Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  return any;
}

/**
 * Where the two cores went during a run: CPU time of the daemon processes, this load generator and
 * nats-server, as a share of one core, and the daemons' CPU per answered request.
 */
export function cpuMeter(daemonPids: readonly number[], natsPid: number | undefined) {
  const daemons = () => daemonPids.reduce((sum, pid) => sum + cpuSeconds(pid), 0);
  const generator = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const start = {
    at: performance.now(),
    daemons: daemons(),
    generator: generator(),
    nats: natsPid ? cpuSeconds(natsPid) : 0,
  };
  return (requests: number) => {
    const seconds = (performance.now() - start.at) / 1000;
    const share = (used: number) => Number((used / seconds).toFixed(2));
    const daemonUsed = daemons() - start.daemons;
    return {
      daemon_cores: share(daemonUsed),
      generator_cores: share(generator() - start.generator),
      nats_server_cores: natsPid ? share(cpuSeconds(natsPid) - start.nats) : 'not found',
      daemon_cpu_us_per_request: Math.round((daemonUsed * 1e6) / Math.max(1, requests)),
    };
  };
}

/**
 * The load generator's request/reply: one reply subscription and no timer per request (nats.js's
 * `request` sets up a timer and a few objects per call). The generator shares the two cores with
 * the daemon and nats-server, so every microsecond it spends is taken from what is measured.
 * Every request carries `Authorization: Bearer <bearer>` when one is given (as `ToolsearchClient`
 * sends it: the session's token on a session's subjects). Replies come to `<inboxPrefix>.bench.…`
 * (a user of the shipped NATS config may only subscribe to its own `_INBOX_<user>`).
 * A reply that never comes is counted as an error by `drain` at the end of a run.
 */
export class LightRequester {
  readonly #nc: NatsConnection;
  readonly #inbox: string;
  readonly #headers: MsgHdrs | undefined;
  readonly #pending = new Map<number, (data: Uint8Array | undefined) => void>();
  readonly #subscription;
  #next = 0;

  constructor(nc: NatsConnection, options: { inboxPrefix: string; bearer?: string | undefined }) {
    this.#nc = nc;
    this.#inbox = `${options.inboxPrefix}.bench.${randomUUID()}`;
    if (options.bearer !== undefined) {
      this.#headers = natsHeaders();
      this.#headers.set('Authorization', `Bearer ${options.bearer}`);
    }
    const prefix = this.#inbox.length + 1;
    this.#subscription = nc.subscribe(`${this.#inbox}.*`, {
      callback: (_error, message) => {
        const id = Number(message.subject.slice(prefix));
        const resolve = this.#pending.get(id);
        if (resolve === undefined) return;
        this.#pending.delete(id);
        resolve(message.data);
      },
    });
  }

  /** The reply's payload, or undefined if `drain` gave up on it. */
  request(subject: string, payload: Uint8Array): Promise<Uint8Array | undefined> {
    const id = this.#next++;
    return new Promise((resolve) => {
      this.#pending.set(id, resolve);
      this.#nc.publish(subject, payload, {
        reply: `${this.#inbox}.${id}`,
        ...(this.#headers !== undefined ? { headers: this.#headers } : {}),
      });
    });
  }

  /** Waits up to `ms` for outstanding replies, then fails the rest; returns how many failed. */
  async drain(ms: number): Promise<number> {
    const until = performance.now() + ms;
    while (this.#pending.size > 0 && performance.now() < until) await new Promise((r) => setTimeout(r, 50));
    const lost = this.#pending.size;
    for (const resolve of this.#pending.values()) resolve(undefined);
    this.#pending.clear();
    this.#subscription.unsubscribe();
    return lost;
  }
}

/** Replies are checked for this prefix only, so the generator stays light. */
const OK_PREFIX = new TextEncoder().encode('{"ok":true');
export const isOk = (reply: Uint8Array | undefined): boolean =>
  reply !== undefined && OK_PREFIX.every((byte, i) => reply[i] === byte);
