import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEYS } from './harness';
import { CAROL_KEY, ConsoleAgent, consoleScenario } from './console-harness';

// The web console over plain HTTP against a real daemon (NATS, Redis, the approvals queue): what a
// browser can and cannot do, checked without a browser. The browser flows are in
// console-browser.int.test.ts.
const scenario = consoleScenario();
const { MAIN, OTHER } = scenario;
let base = '';

async function signedIn(tenant: string, key: string): Promise<ConsoleAgent> {
  const agent = new ConsoleAgent(base);
  const { response } = await agent.signIn(tenant, key);
  expect(response.status).toBe(303);
  return agent;
}

/** What the agent's event stream carries while `during` runs and for `ms` after. */
async function readStream(agent: ConsoleAgent, ms: number, during: () => Promise<unknown>): Promise<string> {
  const controller = new AbortController();
  const response = await fetch(`${base}/events`, {
    headers: { cookie: agent.cookieHeader() },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const reader = response.body?.getReader();
  let text = '';
  const reading = (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (chunk === undefined || chunk.done) return;
      text += decoder.decode(chunk.value);
    }
  })();
  await during();
  await new Promise((resolve) => setTimeout(resolve, ms));
  controller.abort();
  await reading;
  return text;
}

describe('web console over HTTP', () => {
  beforeAll(async () => {
    base = await scenario.start();
  }, 30_000);
  afterAll(() => scenario.stop());

  it('shows nothing before sign-in: pages redirect, fragments, the stream and posts are refused', async () => {
    const agent = new ConsoleAgent(base);
    const page = await agent.request('/approvals');
    expect(page.response.status).toBe(303);
    expect(page.response.headers.get('location')).toBe('/console/sign-in');
    expect((await agent.request('/approvals?fragment=1')).response.status).toBe(401);
    expect((await agent.request('/events')).response.status).toBe(401);
    expect((await agent.request('/sessions?fragment=1')).response.status).toBe(401);
    const post = await agent.request('/approvals/a-AAAAAAAAAAAAAAAAAAAA/decide', {
      form: { decision: 'approve', tool: 'x', digest: '0'.repeat(64) },
    });
    expect(post.response.status).toBe(401);
  });

  it('signs in only with an approver or operator key of the tenant: session tokens and gateway keys are refused', async () => {
    const refusals: [string, string, number][] = [
      [MAIN, scenario.token(MAIN), 403],
      [MAIN, TEST_KEYS.gateway, 403],
      [MAIN, 'tsk_nobody-configured-this-key-000000000', 401],
      [MAIN, CAROL_KEY, 401],
    ];
    for (const [tenant, key, status] of refusals) {
      const agent = new ConsoleAgent(base);
      const { response, text } = await agent.signIn(tenant, key);
      expect(response.status).toBe(status);
      expect(response.headers.getSetCookie().some((cookie) => cookie.startsWith('ts_console='))).toBe(false);
      expect(text).toContain('role="alert"');
      expect((await agent.request('/approvals')).response.status).toBe(303);
    }
    // The sign-in form's own CSRF pair is required too.
    const forged = new ConsoleAgent(base);
    const { response } = await forged.request('/sign-in', {
      form: { csrf: 'x'.repeat(43), tenant: MAIN, key: TEST_KEYS.alice },
    });
    expect(response.status).toBe(403);
    // An approver key signs in.
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    expect((await alice.request('/approvals')).response.status).toBe(200);
  });

  it('sets an HttpOnly, SameSite=Strict session cookie, Secure unless served on a loopback name', async () => {
    const agent = new ConsoleAgent(base);
    const { response } = await agent.signIn(MAIN, TEST_KEYS.alice);
    const cookie = response.headers.getSetCookie().find((value) => value.startsWith('ts_console=')) ?? '';
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    expect(cookie).toMatch(/Path=\/console/);
    expect(cookie).not.toMatch(/Secure/);
    // Behind a TLS proxy the page is asked for under a public name: the cookie is Secure.
    const url = new URL(`${base}/sign-in`);
    const secure = await new Promise<string[]>((resolve, reject) => {
      const req = httpRequest(
        { host: url.hostname, port: url.port, path: url.pathname, headers: { host: 'console.example.com' } },
        (res) => {
          res.resume();
          resolve(res.headers['set-cookie'] ?? []);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(secure.join('\n')).toMatch(/ts_console_pre=[^;]+;.*Secure/);
  });

  it('serves pages under a CSP without inline script, with no inline script, style or handler in them', async () => {
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    await scenario.hold(MAIN, { service: 'search' });
    for (const path of ['/sign-in', '/approvals']) {
      const { response, text } = await alice.request(path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(text).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(text).not.toMatch(/\sstyle=|\son[a-z]+=/i);
    }
    const script = await alice.request('/assets/console.js');
    expect(script.response.headers.get('content-type')).toContain('javascript');
  });

  it('shows a held call with its tool, source, risk, why, session, gateway and redacted arguments', async () => {
    const id = await scenario.hold(MAIN, { service: 'billing', api_token: 'tok-SHOULD-NOT-SHOW', note: '<b>x</b>' });
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    const { text } = await alice.request(`/approvals/${id}`);
    expect(text).toContain('rotate_secret');
    expect(text).toContain('vault');
    expect(text).toMatch(/risk-high/);
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('tok-SHOULD-NOT-SHOW');
    // Argument text is escaped, never markup.
    expect(text).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(text).not.toContain('<b>x</b>');
    expect(text).toContain('>test<'); // the gateway key that opened the session
    const list = await alice.request('/approvals?fragment=1');
    expect(list.text).toContain(`held-${id}`);
  });

  it('refuses a decision without the session CSRF token and decides nothing', async () => {
    const id = await scenario.hold(MAIN, { service: 'mail' });
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    const page = await alice.request(`/approvals/${id}`);
    const digest = /name="digest" value="([0-9a-f]{64})"/.exec(page.text)?.[1] ?? '';
    for (const csrf of [undefined, 'y'.repeat(43)]) {
      const form: Record<string, string> = { decision: 'approve', tool: 'rotate_secret', digest };
      if (csrf !== undefined) form['csrf'] = csrf;
      const { response, text } = await alice.request(`/approvals/${id}/decide`, { form });
      expect(response.status).toBe(403);
      expect(text).toContain('CSRF');
    }
    const after = await alice.request(`/approvals/${id}?fragment=1`);
    expect(after.text).toContain('data-state="pending"');
    // Another approver's token is not this session's either.
    const bob = await signedIn(MAIN, TEST_KEYS.bob);
    const bobs = ConsoleAgent.csrfOf((await bob.request('/approvals')).text);
    const cross = await alice.request(`/approvals/${id}/decide`, {
      form: { csrf: bobs, decision: 'approve', tool: 'rotate_secret', digest },
    });
    expect(cross.response.status).toBe(403);
  });

  it('decides through approvals.decide: the first approver wins and runs the call once; the second sees who did', async () => {
    const id = await scenario.hold(MAIN, { service: 'ledger' });
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    const bob = await signedIn(MAIN, TEST_KEYS.bob);
    const forms = await Promise.all([alice.request(`/approvals/${id}`), bob.request(`/approvals/${id}`)]);
    const [first, second] = forms.map((page, at) => ({
      csrf: ConsoleAgent.csrfOf(page.text),
      digest: /name="digest" value="([0-9a-f]{64})"/.exec(page.text)?.[1] ?? '',
      agent: at === 0 ? alice : bob,
    }));
    const decide = (who: typeof first, decision: string) =>
      who?.agent.request(`/approvals/${id}/decide`, {
        form: { csrf: who.csrf, decision, reason: 'rotation window', tool: 'rotate_secret', digest: who.digest },
      });
    const won = await decide(first, 'approve');
    expect(won?.response.status).toBe(303);
    expect(won?.response.headers.get('location')).toBe(`/console/approvals/${id}?outcome=decided`);
    const lost = await decide(second, 'deny');
    expect(lost?.response.headers.get('location')).toBe(`/console/approvals/${id}?outcome=taken`);
    const seen = await bob.request(`/approvals/${id}?outcome=taken`);
    expect(seen.text).toContain('Someone decided this call before you');
    expect(seen.text).toMatch(/Approved by <strong>alice<\/strong>/);
    await expect.poll(() => scenario.ran.filter((call) => call.arguments['service'] === 'ledger').length).toBe(1);
    await expect
      .poll(async () => (await alice.request(`/approvals/${id}?fragment=1`)).text)
      .toContain('data-state="done"');
  });

  it("keeps tenants apart: another tenant's approver sees none of this tenant's calls, by list, id or stream", async () => {
    const id = await scenario.hold(MAIN, { service: 'payroll' });
    const carol = await signedIn(OTHER, CAROL_KEY);
    const list = await carol.request('/approvals');
    expect(list.text).not.toContain(id);
    expect(list.text).toContain('No call is waiting');
    expect((await carol.request(`/approvals/${id}`)).response.status).toBe(404);
    const stream = await readStream(carol, 1500, () => scenario.hold(MAIN, { service: 'payroll-2' }));
    expect(stream).not.toContain('event: approvals');
    // Her own tenant's held call does reach her stream.
    const own = await readStream(carol, 1500, () => scenario.hold(OTHER, { service: 'own' }));
    expect(own).toContain('event: approvals');
  });

  it('gives operators the sessions, toolsets, activity, quotas and why-this-tool pages; approvers only held calls', async () => {
    const operator = await signedIn(MAIN, TEST_KEYS.operator);
    const sessions = await operator.request('/sessions');
    expect(sessions.response.status).toBe(200);
    expect(sessions.text).toContain('<meter');
    const session = /href="\/console\/sessions\/(s-[^"]+)"/.exec(sessions.text)?.[1] ?? '';
    const why = await operator.request(`/sessions/${session}?q=${encodeURIComponent('rotate a secret')}`);
    expect(why.text).toContain('rotate_secret');
    expect(why.text).toMatch(/<meter\s+min="0"\s+max="[0-9.]+"\s+value="[0-9.]+"/);
    expect((await operator.request('/toolsets')).text).toContain('vault');
    expect((await operator.request('/activity')).text).toContain('pending_approval');
    expect((await operator.request('/quotas')).text).toContain('heldApprovals');
    // An operator reads held calls but gets no decision form.
    const held = await operator.request('/approvals');
    expect(held.text).not.toContain('name="decision"');
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    expect((await alice.request('/sessions')).response.status).toBe(403);
  });

  it('refuses sign-ins to a tenant from an address after 20 failures in a minute, right keys included', async () => {
    const { QUICK } = scenario;
    for (let i = 0; i < 20; i += 1) {
      const { response } = await new ConsoleAgent(base).signIn(QUICK, `tsk_a-wrong-guess-number-${i}-0000000000`);
      expect(response.status).toBe(401);
    }
    const right = await new ConsoleAgent(base).signIn(QUICK, TEST_KEYS.alice);
    expect(right.response.status).toBe(429);
    // Other tenants' sign-ins from this address are not held back.
    expect((await new ConsoleAgent(base).signIn(MAIN, TEST_KEYS.alice)).response.status).toBe(303);
  });

  it('caps the live streams of one sign-in, and answers unknown paths with 404', async () => {
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    const controller = new AbortController();
    const open = async () =>
      (await fetch(`${base}/events`, { headers: { cookie: alice.cookieHeader() }, signal: controller.signal })).status;
    try {
      const statuses = [];
      for (let i = 0; i < 16; i += 1) statuses.push(await open());
      expect(statuses.every((status) => status === 200)).toBe(true);
      expect(await open()).toBe(503);
      // Another approver is not held back by alice's tabs.
      const bob = await signedIn(MAIN, TEST_KEYS.bob);
      const other = await fetch(`${base}/events`, {
        headers: { cookie: bob.cookieHeader() },
        signal: controller.signal,
      });
      expect(other.status).toBe(200);
    } finally {
      controller.abort();
    }
    for (const path of [
      '/nothing',
      '/toString',
      '/approvals/a-AAAAAAAAAAAAAAAAAAAA/decide/more',
      '/toolsets/extra',
      '/sign-in/extra',
      '/assets/nothing.js',
    ])
      expect((await alice.request(path)).response.status).toBe(404);
  });

  it('refuses an oversized form and ends a session only with its CSRF token', async () => {
    const alice = await signedIn(MAIN, TEST_KEYS.alice);
    const big = await alice.request('/sign-out', { form: { csrf: 'x', pad: 'p'.repeat(20_000) } });
    expect(big.response.status).toBe(413);
    expect((await alice.request('/sign-out', { form: {} })).response.status).toBe(403);
    const csrf = ConsoleAgent.csrfOf((await alice.request('/approvals')).text);
    const out = await alice.request('/sign-out', { form: { csrf } });
    expect(out.response.headers.get('location')).toBe('/console/sign-in');
    expect((await alice.request('/approvals')).response.status).toBe(303);
  });
});
