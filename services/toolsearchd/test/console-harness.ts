import { createHash } from 'node:crypto';
import { JSONCodec, type NatsConnection } from 'nats';
import type { ToolsearchClient } from '@toolsearch/client';
import type { ExecRequest } from '@toolsearch/proto';
import { daemonFixture, tenantId, testCredentials } from './harness';

const codec = JSONCodec<unknown>();
const obj = { type: 'object', properties: {} };

/** An approver key that acts for one tenant only (the console's tenant isolation is tested with it). */
export const CAROL_KEY = 'tsk_test-key-of-approver-carol-of-one-tenant';

/**
 * The console's scenario on a real daemon: tenant `main` with a plugin toolset whose risky tools
 * are held for approval (and served here, so an approved call runs and returns a result), tenant
 * `quick` whose held calls expire after 4 s, and tenant `other` whose only approver key is carol's.
 */
export function consoleScenario() {
  const MAIN = tenantId('con');
  const QUICK = tenantId('quick');
  const OTHER = tenantId('other');
  const fixture = daemonFixture({
    credentials: [
      ...testCredentials(),
      {
        name: 'carol',
        sha256: createHash('sha256').update(CAROL_KEY).digest('hex'),
        tenants: [OTHER],
        roles: ['approver'],
      },
    ],
    tenants: {
      [MAIN]: {},
      [QUICK]: { policy: { approval: { expiryMs: 4000 } } },
      [OTHER]: {},
    },
  });
  const sessions = new Map<string, { client: ToolsearchClient; id: string; token: string }>();
  /** Calls the plugin ran, by tool name (an approved call must run exactly once). */
  const ran: ExecRequest[] = [];

  async function prepare(tenant: string, nc: NatsConnection): Promise<void> {
    const client = await fixture.client(tenant);
    nc.subscribe(`toolsearch.v1.${tenant}.exec.vault`, {
      callback: (error, message) => {
        if (error) return;
        const request = codec.decode(message.data) as ExecRequest;
        ran.push(request);
        message.respond(codec.encode({ ok: true, data: { rotated: request.arguments['service'], done: true } }));
      },
    });
    await nc.flush();
    await client.putToolset({
      id: 'vault',
      kind: 'plugin',
      label: 'vault',
      tools: [
        {
          name: 'rotate_secret',
          description: 'Rotate the secret of a service and revoke the old one.',
          inputSchema: obj,
          risk: 'high',
        },
        { name: 'list_services', description: 'List the services whose secrets the vault holds.', inputSchema: obj },
      ],
    });
    const { session, token } = await client.openSession({
      grant: { toolsets: ['vault'] },
      model: { contextLength: 128_000 },
    });
    sessions.set(tenant, { client, id: session.id, token });
  }

  return {
    MAIN,
    QUICK,
    OTHER,
    fixture,
    ran,
    /** Starts the daemon and prepares every tenant; returns the console's base URL. */
    async start(): Promise<string> {
      const daemon = await fixture.start();
      const nc = await fixture.connection();
      for (const tenant of [MAIN, QUICK, OTHER]) await prepare(tenant, nc);
      return `${daemon.httpAddress ?? ''}/console`;
    },
    /** The session token of a tenant's session (a credential that must not sign in). */
    token(tenant: string): string {
      return sessions.get(tenant)?.token ?? '';
    },
    /** Makes the tenant's session call `rotate_secret`; resolves with the held call's id. */
    async hold(tenant: string, args: Record<string, unknown>): Promise<string> {
      const session = sessions.get(tenant);
      if (session === undefined) throw new Error(`no session for ${tenant}`);
      const { results } = await session.client.dispatch(session.id, [
        { id: `c-${Date.now()}`, name: 'rotate_secret', arguments: args },
      ]);
      const id = results[0]?.approval_id;
      if (results[0]?.status !== 'pending_approval' || id === undefined) throw new Error('the call was not held');
      return id;
    },
    /** Makes the tenant's session search for a tool, then call `list_services` (not held). */
    async searchAndCall(tenant: string, query: string): Promise<void> {
      const session = sessions.get(tenant);
      if (session === undefined) throw new Error(`no session for ${tenant}`);
      await session.client.dispatch(session.id, [{ id: 's1', name: 'tool_search', arguments: { queries: [query] } }]);
      await session.client.dispatch(session.id, [{ id: 'c1', name: 'list_services', arguments: {} }]);
    },
    stop: () => fixture.stop(),
  };
}

/** A tiny browser stand-in for HTTP-level tests: keeps cookies, never follows redirects. */
export class ConsoleAgent {
  readonly #cookies = new Map<string, string>();
  constructor(readonly base: string) {}

  async request(
    path: string,
    init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {},
  ) {
    const headers: Record<string, string> = { ...init.headers };
    if (this.#cookies.size > 0) headers['cookie'] = this.cookieHeader();
    if (init.form !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(`${this.base}${path}`, {
      method: init.method ?? (init.form !== undefined ? 'POST' : 'GET'),
      headers,
      redirect: 'manual',
      ...(init.form !== undefined ? { body: new URLSearchParams(init.form).toString() } : {}),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = (pair ?? '').indexOf('=');
      const name = (pair ?? '').slice(0, at);
      const value = (pair ?? '').slice(at + 1);
      if (value === '') this.#cookies.delete(name);
      else this.#cookies.set(name, value);
    }
    return { response, text: await response.text() };
  }

  /** The `Cookie` header this agent sends. */
  cookieHeader(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** The CSRF token of the first form on a page. */
  static csrfOf(html: string): string {
    return /name="csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';
  }

  /** Signs in; returns the response to the sign-in post. */
  async signIn(tenant: string, key: string) {
    const form = await this.request('/sign-in');
    return this.request('/sign-in', { form: { csrf: ConsoleAgent.csrfOf(form.text), tenant, key } });
  }
}
