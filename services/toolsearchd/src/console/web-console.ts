import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { RedisClient } from '../redis-client';
import { ConsoleAuth } from './console-auth';
import { queryWeight } from '../request-weights';
import type { ConsoleBackend } from './console-backend';
import type { ConsoleConfig } from './console-config';
import { ConsoleError } from './console-errors';
import { ConsolePages } from './console-pages';
import { ConsoleSessions, type SignedIn } from './console-sessions';
import { readForm } from './form-body';
import { html, type Html } from './html';
import { notice, page } from './layout';
import { StoreWatch } from './store-watch';
import { LiveStreams } from './live-events';
import { signInPage } from './sign-in-page';

/**
 * No inline script or style, nothing from elsewhere, no framing, forms only to the console. The
 * one script and style sheet are files of the console's own (`/console/assets/`).
 */
const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  // Not `no-referrer`: with it, browsers send `Origin: null` on the console's own form posts, which
  // the listener's origin check refuses (as it must, for sandboxed frames and files).
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

const ASSETS: Record<string, string> = {
  'console.js': 'text/javascript; charset=utf-8',
  'console.css': 'text/css; charset=utf-8',
};

/** Operator pages: path → title and the page's content. */
const OPERATOR_PAGES = {
  sessions: { title: 'Sessions', render: (pages: ConsolePages, s: SignedIn) => pages.sessions(s) },
  toolsets: { title: 'Toolsets', render: (pages: ConsolePages, s: SignedIn) => pages.toolsets(s) },
  activity: { title: 'Activity', render: (pages: ConsolePages, s: SignedIn) => pages.activity(s) },
  quotas: { title: 'Quotas and usage', render: (pages: ConsolePages, s: SignedIn) => pages.quotas(s) },
} as const;

/**
 * The web console under `/console` on the daemon's HTTP listener (docs/console.md): approvers
 * decide held calls, operators see sessions, toolsets, activity and quotas. Pages are rendered on
 * the server; one small script refreshes them from a Server-Sent Events stream.
 */
export class WebConsole {
  readonly #auth: ConsoleAuth;
  readonly #sessions: ConsoleSessions;
  readonly #pages: ConsolePages;
  readonly #backend: ConsoleBackend;
  readonly #streams: LiveStreams;
  readonly #watches: { readonly held: StoreWatch; readonly audit: StoreWatch };
  readonly #assets = new Map<string, Buffer>();
  readonly #idleMs: number;
  readonly #log: Logger;

  constructor(deps: {
    backend: ConsoleBackend;
    redis: RedisClient;
    prefix: string;
    config: ConsoleConfig;
    /** How long a form body may stall (`http.bodyIdleTimeoutMs`). */
    bodyIdleTimeoutMs: number;
    log: Logger;
  }) {
    this.#sessions = new ConsoleSessions(deps.redis, deps.prefix, deps.config);
    this.#auth = new ConsoleAuth({ credentials: deps.backend.credentials, sessions: this.#sessions });
    this.#pages = new ConsolePages(deps.backend);
    this.#backend = deps.backend;
    this.#watches = {
      held: new StoreWatch(async (tenant) => (await deps.backend.heldIds(tenant)).join(',')),
      audit: new StoreWatch((tenant) => deps.backend.auditHead(tenant)),
    };
    this.#streams = new LiveStreams(deps.backend.nc, this.#watches, deps.config.maxStreams);
    this.#idleMs = deps.bodyIdleTimeoutMs;
    this.#log = deps.log;
    for (const name of Object.keys(ASSETS))
      this.#assets.set(name, readFileSync(new URL(`./assets/${name}`, import.meta.url)));
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) res.setHeader(name, value);
    const url = new URL(req.url ?? '/', 'http://console.invalid');
    try {
      await this.#route(req, res, url);
    } catch (error) {
      if (!(error instanceof ConsoleError)) {
        this.#log.error({ err: (error as Error).message, path: url.pathname }, 'console request failed');
        return this.#fail(
          res,
          url,
          new ConsoleError('BAD_REQUEST', 'the console could not answer; it has been logged.'),
          500,
        );
      }
      return this.#fail(res, url, error);
    }
  }

  async #route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const parts = url.pathname.split('/').filter((part) => part !== '');
    const [, section, id, action] = parts;
    // Only held calls and sessions have pages of their own (and files, under assets).
    const deepest = section === 'approvals' ? 4 : section === 'sessions' || section === 'assets' ? 3 : 2;
    if (parts.length > deepest) throw new ConsoleError('NOT_FOUND', 'there is no such console page.');
    if (section === 'assets') return this.#asset(req, res, id);
    if (section === 'sign-in') return req.method === 'POST' ? this.#signIn(req, res) : this.#signInForm(req, res);
    const session = await this.#auth.signedIn(req);
    if (session === undefined) {
      if (req.method === 'GET' && url.searchParams.get('fragment') === null && section !== 'events')
        return redirect(res, '/console/sign-in');
      throw new ConsoleError('UNAUTHENTICATED', 'sign in first.');
    }
    if (section === undefined) {
      return redirect(res, session.roles.has('approver') ? '/console/approvals' : '/console/sessions');
    }
    if (section === 'sign-out') return this.#signOut(req, res, session);
    if (section === 'events') {
      requireMethod(req, 'GET');
      // Counted but never refused: a browser does not reopen a live stream that was refused once.
      this.#backend.charge(session.tenant, 1);
      return await this.#streams.open(res, session, async () => (await this.#auth.signedIn(req)) !== undefined);
    }
    // Every other page counts against the tenant's requests per second, like its NATS requests; a
    // session page that searches counts its query too (`queryWeight`). A decision is refused only
    // past the headroom, as on NATS (`DECISIONS`): an approver is not turned away by the agents.
    const query = section === 'sessions' && id !== undefined ? url.searchParams.get('q') : null;
    if (section === 'approvals' && id !== undefined && action === 'decide') this.#backend.admitDecision(session.tenant);
    else await this.#backend.admit(session.tenant, 1 + (query ? queryWeight(query) : 0));
    if (section === 'approvals') return this.#approvals(req, res, url, session, id, action);
    if (Object.hasOwn(OPERATOR_PAGES, section)) {
      requireMethod(req, 'GET');
      this.#auth.requireRole(session, 'operator', 'this page');
      if (section === 'sessions' && id !== undefined) {
        const content = await this.#pages.session(session, id, url.searchParams.get('q'));
        return sendPage(
          res,
          200,
          page({ title: `Session ${id}`, signedIn: session, current: '/console/sessions', content }),
        );
      }
      if (section === 'activity' && url.searchParams.get('fragment') !== null)
        return sendPage(res, 200, (await this.#pages.activityRows(session)).text);
      const { title, render } = OPERATOR_PAGES[section as keyof typeof OPERATOR_PAGES];
      const live = section === 'activity' ? 'activity' : undefined;
      const content = await render(this.#pages, session);
      return sendPage(
        res,
        200,
        page({ title, signedIn: session, current: `/console/${section}`, content, ...(live ? { live } : {}) }),
      );
    }
    throw new ConsoleError('NOT_FOUND', 'there is no such console page.');
  }

  async #approvals(
    req: IncomingMessage,
    res: ServerResponse,
    url: URL,
    session: SignedIn,
    id: string | undefined,
    action: string | undefined,
  ): Promise<void> {
    if (!session.roles.has('operator')) this.#auth.requireRole(session, 'approver', 'held calls');
    const fragment = url.searchParams.get('fragment') !== null;
    if (id !== undefined && action === 'decide') {
      requireMethod(req, 'POST');
      const form = await readForm(req, { idleMs: this.#idleMs });
      // The CSRF token first: a forged post learns nothing, not even whether the call exists.
      this.#auth.requireCsrf(session, form);
      this.#auth.requireRole(session, 'approver', 'deciding a held call');
      const outcome = await this.#pages.decide(session, id, form);
      return redirect(res, `/console/approvals/${encodeURIComponent(id)}?outcome=${outcome}`);
    }
    requireMethod(req, 'GET');
    if (action !== undefined) throw new ConsoleError('NOT_FOUND', 'there is no such console page.');
    if (id !== undefined) {
      if (fragment) return sendPage(res, 200, (await this.#pages.heldCallFragment(session, id)).text);
      const content = await this.#pages.heldCall(session, id, url.searchParams.get('outcome'));
      return sendPage(
        res,
        200,
        page({ title: 'Held call', signedIn: session, current: '/console/approvals', live: `approval:${id}`, content }),
      );
    }
    const list: Html = await this.#pages.heldCalls(session);
    if (fragment) return sendPage(res, 200, list.text);
    return sendPage(
      res,
      200,
      page({
        title: 'Held calls',
        signedIn: session,
        current: '/console/approvals',
        live: 'approvals',
        content: html`<div id="held-list">${list}</div>`,
      }),
    );
  }

  #signInForm(req: IncomingMessage, res: ServerResponse, status = 200, error?: string, tenant?: string): void {
    const csrf = this.#sessions.preSignInToken();
    res.setHeader('set-cookie', this.#sessions.preSignInCookie(req, csrf));
    sendPage(
      res,
      status,
      signInPage(csrf, { ...(error !== undefined ? { error } : {}), ...(tenant !== undefined ? { tenant } : {}) }),
    );
  }

  async #signIn(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req, { idleMs: this.#idleMs });
    try {
      const id = await this.#auth.signIn(req, form);
      res.setHeader('set-cookie', [
        this.#sessions.sessionCookie(req, id),
        this.#sessions.preSignInCookie(req, undefined),
      ]);
      redirect(res, '/console');
    } catch (error) {
      if (!(error instanceof ConsoleError)) throw error;
      this.#signInForm(req, res, error.status, error.message, (form.get('tenant') ?? '').slice(0, 63));
    }
  }

  async #signOut(req: IncomingMessage, res: ServerResponse, session: SignedIn): Promise<void> {
    requireMethod(req, 'POST');
    this.#auth.requireCsrf(session, await readForm(req, { idleMs: this.#idleMs }));
    await this.#sessions.destroy(req);
    res.setHeader('set-cookie', this.#sessions.sessionCookie(req, undefined));
    redirect(res, '/console/sign-in');
  }

  #asset(req: IncomingMessage, res: ServerResponse, name: string | undefined): void {
    requireMethod(req, 'GET');
    const body = name === undefined ? undefined : this.#assets.get(name);
    if (name === undefined || body === undefined) throw new ConsoleError('NOT_FOUND', 'there is no such file.');
    res.writeHead(200, { 'content-type': ASSETS[name], 'content-length': body.length, 'cache-control': 'no-cache' });
    res.end(body);
  }

  #fail(res: ServerResponse, url: URL, error: ConsoleError, status = error.status): void {
    if (res.headersSent) {
      res.end();
      return;
    }
    if (url.searchParams.get('fragment') !== null || url.pathname === '/console/events') {
      res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
      res.end(`${error.code}: ${error.message}`);
      return;
    }
    const signIn = error.code === 'UNAUTHENTICATED' ? html` <a href="/console/sign-in">Sign in</a>` : html``;
    sendPage(
      res,
      status,
      page({
        title: 'Refused',
        content: html`${notice('error', error.message)}
          <p>${signIn}</p>`,
      }),
    );
  }

  /** Stops watching the store (open streams end with the listener's connections). */
  close(): void {
    this.#watches.held.close();
    this.#watches.audit.close();
  }

  /** Live streams open on this replica (for tests and metrics). */
  get streams(): number {
    return this.#streams.size;
  }
}

function requireMethod(req: IncomingMessage, method: 'GET' | 'POST'): void {
  if (req.method !== method) throw new ConsoleError('METHOD_NOT_ALLOWED', `this path takes ${method} only.`);
}

function sendPage(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0 });
  res.end();
}
