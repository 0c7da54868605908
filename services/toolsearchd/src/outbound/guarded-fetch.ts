import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { hostOf, type OutboundPolicy } from './address-policy';
import { OutboundRefusedError } from './outbound-errors';

export interface ResolvedAddress {
  readonly address: string;
  readonly family: number;
}
/** Every address of a host name (the system resolver in the daemon; a table in tests). */
export type Resolver = (host: string) => Promise<readonly ResolvedAddress[]>;

export const systemResolver: Resolver = (host) => lookup(host, { all: true, verbatim: true });

/**
 * A policy with a resolver: the addresses a URL may be connected to. The check is on the
 * addresses the connection then uses (never on a name resolved again later), so a host that
 * answers a public address to the check and a private one to the connection cannot slip through.
 */
export class OutboundGuard {
  constructor(
    readonly policy: OutboundPolicy,
    private readonly resolver: Resolver = systemResolver,
  ) {}

  /** The addresses to connect to for `url`, every one allowed; `OutboundRefusedError` otherwise. */
  async resolve(url: URL): Promise<readonly ResolvedAddress[]> {
    if (!this.policy.allowsScheme(url)) throw new OutboundRefusedError({ allowed: false, rule: 'scheme' });
    const host = hostOf(url);
    const family = isIP(host);
    let addresses: readonly ResolvedAddress[];
    if (family !== 0) addresses = [{ address: host, family }];
    else {
      try {
        addresses = await this.resolver(host);
      } catch (error) {
        // A name the operator allowed that does not resolve is unreachable; any other is refused
        // like a private one, so a tenant cannot tell internal names that exist from ones that don't.
        if (this.policy.trusts(url)) throw error;
        addresses = [];
      }
    }
    const decision = this.policy.decide(
      url,
      addresses.map((entry) => entry.address),
    );
    if (!decision.allowed) throw new OutboundRefusedError(decision);
    return addresses;
  }
}

/** The fetch of one MCP connection, and how to release its sockets when the connection ends. */
export interface OutboundFetch {
  readonly fetch: FetchLike;
  close(): void;
}

/**
 * A fetch that resolves and checks every request's host through `guard`, connects to exactly the
 * checked addresses, and never follows a redirect (a 3xx fails with `OutboundRefusedError`). Its
 * keep-alive sockets belong to this one connection: nothing is shared with other tenants.
 */
export function guardedFetch(guard: OutboundGuard): OutboundFetch {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return {
    fetch: async (input, init) => {
      const url = new URL(input);
      const addresses = await guard.resolve(url);
      return send(url, init, addresses, url.protocol === 'https:' ? agents.https : agents.http);
    },
    close: () => {
      agents.http.destroy();
      agents.https.destroy();
    },
  };
}

/** A lookup that answers only the addresses already checked (net calls it with `all` when it races families). */
function pinned(addresses: readonly ResolvedAddress[]): LookupFunction {
  return (_host, options, callback) => {
    const [first] = addresses;
    if (options.all === true)
      callback(
        null,
        addresses.map((entry) => ({ ...entry })),
      );
    else if (first !== undefined) callback(null, first.address, first.family);
    else callback(Object.assign(new Error('no address to connect to'), { code: 'ENOTFOUND' }), '', 0);
  };
}

function send(
  url: URL,
  init: RequestInit | undefined,
  addresses: readonly ResolvedAddress[],
  agent: http.Agent,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    const body = init?.body ?? undefined;
    if (body !== undefined && typeof body !== 'string') {
      reject(new TypeError('the outbound fetch sends string bodies only'));
      return;
    }
    const method = init?.method ?? 'GET';
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method,
        headers: Object.fromEntries(new Headers(init?.headers).entries()),
        agent,
        lookup: pinned(addresses),
        ...(init?.signal ? { signal: init.signal } : {}),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          request.destroy();
          reject(new OutboundRefusedError({ allowed: false, rule: 'redirect' }));
          return;
        }
        if (status < 200 || status > 599) {
          request.destroy();
          reject(new Error(`unexpected HTTP status ${status}`));
          return;
        }
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          for (const item of Array.isArray(value) ? value : value === undefined ? [] : [value])
            headers.append(name, item);
        }
        const empty = status === 204 || status === 304 || method === 'HEAD';
        if (empty) response.resume();
        resolve(
          new Response(empty ? null : (Readable.toWeb(response) as ReadableStream<Uint8Array>), {
            status,
            statusText: response.statusMessage ?? '',
            headers,
          }),
        );
      },
    );
    request.once('error', reject);
    request.end(body);
  });
}
