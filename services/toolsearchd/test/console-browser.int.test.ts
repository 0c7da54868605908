import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEYS } from './harness';
import { CAROL_KEY, consoleScenario } from './console-harness';

// The web console in headless Chromium against a real daemon. Debian's `chromium` package is the
// browser (playwright-core downloads none); without it these tests skip and say how to install it.
// With TOOLSEARCH_SCREENSHOTS=<folder> the screenshots of the README are written there
// (`npm run screenshots` writes docs/images).
const CHROMIUM = process.env['TOOLSEARCH_CHROMIUM'] ?? '/usr/bin/chromium';
const HAS_BROWSER = existsSync(CHROMIUM);
if (!HAS_BROWSER)
  console.warn(
    `console browser tests skipped: no Chromium at ${CHROMIUM}. Install it with \`apt-get install chromium\` (Debian/Ubuntu, as root), or set TOOLSEARCH_CHROMIUM to a Chromium binary.`,
  );
const SHOTS = process.env['TOOLSEARCH_SCREENSHOTS'];

// A browser on a busy two-core machine needs more than the suite's default 20 s now and then.
describe.skipIf(!HAS_BROWSER)('web console in a browser', { timeout: 45_000 }, () => {
  const scenario = consoleScenario();
  const { MAIN, QUICK, OTHER } = scenario;
  let base = '';
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  const shots = SHOTS !== undefined ? resolve(SHOTS) : mkdtempSync(join(tmpdir(), 'console-shots-'));

  beforeAll(async () => {
    base = await scenario.start();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    mkdirSync(shots, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    for (const context of contexts) await context.close().catch(() => undefined);
    await browser?.close();
    await scenario.stop();
  });

  async function newPage(viewport = { width: 1280, height: 860 }): Promise<Page> {
    const context = await browser.newContext({ viewport });
    contexts.push(context);
    return context.newPage();
  }

  async function signIn(page: Page, tenant: string, key: string): Promise<void> {
    await page.goto(`${base}/sign-in`);
    await page.getByLabel('Tenant').fill(tenant);
    await page.getByLabel('Approver or operator key').fill(key);
    const answered = page.waitForResponse(
      (response) => response.request().method() === 'POST' && response.url() === `${base}/sign-in`,
    );
    await page.getByRole('button', { name: 'Sign in' }).click();
    await answered;
    // Signed in (a page without the sign-in form) or refused (the form again, with an alert).
    await page.waitForFunction(
      "document.readyState === 'complete' && (document.querySelector('form.sign-in') === null || document.querySelector('[role=alert]') !== null)",
    );
    if (process.env['TOOLSEARCH_TEST_LOG'] !== undefined) console.log(page.url(), await page.content());
  }

  /** Waits until the page's live stream is open (its status line says so). */
  async function live(page: Page): Promise<void> {
    await expect.poll(() => page.locator('#live-status').textContent(), { timeout: 5000 }).toContain('Live');
  }

  it('an approver sees a held call appear without reloading, approves it by keyboard and sees its result', async () => {
    const page = await newPage();
    await signIn(page, MAIN, TEST_KEYS.alice);
    expect(page.url()).toBe(`${base}/approvals`);
    await live(page);
    // A marker that a reload or navigation would wipe.
    await page.evaluate('window.stillTheSamePage = true');
    const id = await scenario.hold(MAIN, { service: 'billing', api_token: 'tok-not-for-eyes', reason: 'quarterly' });
    const card = page.locator(`#held-${id}`);
    await card.waitFor({ timeout: 5000 });
    expect(await page.evaluate('window.stillTheSamePage')).toBe(true);
    await expect.poll(() => card.textContent()).toContain('rotate_secret');
    const text = (await card.textContent()) ?? '';
    expect(text).toContain('[redacted]');
    expect(text).not.toContain('tok-not-for-eyes');
    expect(text).toContain('high');
    await page.screenshot({ path: join(shots, 'console-approvals.png'), fullPage: true });
    // Keyboard only: the reason field, then Tab to Approve, then Enter.
    await card.getByLabel('Reason (recorded with your decision)').focus();
    await page.keyboard.type('billing rotation approved');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${base}/approvals/${id}?outcome=decided`);
    await expect.poll(() => page.locator('pre.result').textContent(), { timeout: 8000 }).toContain('rotated');
    expect(await page.locator('[data-state]').getAttribute('data-state')).toBe('done');
    expect(await page.locator('.decision').textContent()).toContain('alice');
    expect(scenario.ran.filter((call) => call.arguments['service'] === 'billing')).toHaveLength(1);
  });

  it('two approvers on one held call: the first decision wins and the other page shows who made it', async () => {
    const id = await scenario.hold(MAIN, { service: 'race' });
    const [alice, bob] = [await newPage(), await newPage()];
    await signIn(alice, MAIN, TEST_KEYS.alice);
    await signIn(bob, MAIN, TEST_KEYS.bob);
    for (const page of [alice, bob]) {
      await page.goto(`${base}/approvals/${id}`);
      await live(page);
    }
    await bob.evaluate('window.stillTheSamePage = true');
    await alice.getByRole('button', { name: 'Approve' }).click();
    await alice.waitForURL(`${base}/approvals/${id}?outcome=decided`);
    // Bob's page, untouched, learns the outcome by itself: approved by alice, no decision form left.
    await expect.poll(() => bob.locator('.decision').textContent(), { timeout: 8000 }).toMatch(/Approved by\s+alice/);
    expect(await bob.locator('button.approve').count()).toBe(0);
    expect(await bob.evaluate('window.stillTheSamePage')).toBe(true);
    expect(scenario.ran.filter((call) => call.arguments['service'] === 'race')).toHaveLength(1);
  });

  it('an approver denies a held call with a reason and the page says so', async () => {
    const page = await newPage();
    await signIn(page, MAIN, TEST_KEYS.bob);
    const id = await scenario.hold(MAIN, { service: 'payments' });
    await page.goto(`${base}/approvals/${id}`);
    await page.getByLabel('Reason (recorded with your decision)').fill('not during the freeze');
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL(`${base}/approvals/${id}?outcome=decided`);
    await expect.poll(() => page.locator('[data-state]').getAttribute('data-state'), { timeout: 8000 }).toBe('denied');
    expect(await page.locator('.decision').textContent()).toMatch(/Denied by\s+bob/);
    expect(await page.locator('.decision').textContent()).toContain('not during the freeze');
    expect(scenario.ran.filter((call) => call.arguments['service'] === 'payments')).toHaveLength(0);
  });

  it(
    'an expired held call cannot be approved: its buttons close, and a post made anyway is refused',
    { timeout: 40_000 },
    async () => {
      const page = await newPage();
      await signIn(page, QUICK, TEST_KEYS.alice);
      const id = await scenario.hold(QUICK, { service: 'dns' });
      await page.goto(`${base}/approvals/${id}`);
      const form = {
        csrf: (await page.locator('input[name="csrf"]').first().getAttribute('value')) ?? '',
        tool: 'rotate_secret',
        digest: (await page.locator('input[name="digest"]').getAttribute('value')) ?? '',
        decision: 'approve',
      };
      // At expiry the page closes the decision (disabled buttons, then no form once the call expired).
      await expect
        .poll(
          // One look at the page (a locator would wait for a button the live refresh just removed).
          () =>
            page.evaluate(
              "(() => { const button = document.querySelector('button.approve'); return button === null || button.disabled; })()",
            ),
          { timeout: 9000 },
        )
        .toBe(true);
      const forced = await page.request.post(`${base}/approvals/${id}/decide`, { form });
      expect(forced.url()).toContain('outcome=expired');
      expect(await forced.text()).toContain('can no longer be approved');
      await page.goto(`${base}/approvals/${id}`);
      expect(await page.locator('[data-state]').getAttribute('data-state')).toBe('expired');
      expect(scenario.ran.filter((call) => call.arguments['service'] === 'dns')).toHaveLength(0);
    },
  );

  it('a session token or a gateway key cannot sign in', async () => {
    for (const key of [scenario.token(MAIN), TEST_KEYS.gateway]) {
      const page = await newPage();
      await signIn(page, MAIN, key);
      expect(page.url()).toBe(`${base}/sign-in`);
      expect(await page.getByRole('alert').textContent()).toMatch(/cannot sign in/);
      await page.goto(`${base}/approvals`);
      expect(page.url()).toBe(`${base}/sign-in`);
    }
  });

  it("another tenant's approver sees nothing of this tenant", async () => {
    const page = await newPage();
    await signIn(page, OTHER, CAROL_KEY);
    await live(page);
    const id = await scenario.hold(MAIN, { service: 'secret-project' });
    await new Promise((done) => setTimeout(done, 1500));
    expect(await page.locator('main').textContent()).toContain('No call is waiting');
    expect(await page.content()).not.toContain(id);
    const direct = await page.goto(`${base}/approvals/${id}`);
    expect(direct?.status()).toBe(404);
    expect(await page.content()).not.toContain('secret-project');
    // Carol's key is not one of the first tenant's.
    const again = await newPage();
    await signIn(again, MAIN, CAROL_KEY);
    expect(again.url()).toBe(`${base}/sign-in`);
  });

  it('a forged form post without the CSRF token is refused, from another site or this one', async () => {
    const page = await newPage();
    await signIn(page, MAIN, TEST_KEYS.alice);
    const id = await scenario.hold(MAIN, { service: 'forged' });
    await page.goto(`${base}/approvals/${id}`);
    const digest = (await page.locator('input[name="digest"]').getAttribute('value')) ?? '';
    // A page of another origin that posts the decision form at once.
    const attacker: Server = createServer((_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(`<form id="f" method="post" action="${base}/approvals/${id}/decide">
        <input name="decision" value="approve"><input name="tool" value="rotate_secret"><input name="digest" value="${digest}">
        </form><script>document.getElementById('f').submit()</script>`);
    });
    await new Promise<void>((done) => attacker.listen(0, '127.0.0.1', done));
    const port = (attacker.address() as { port: number }).port;
    try {
      const landed = page.waitForResponse((response) => response.url().includes('/decide'));
      await page.goto(`http://127.0.0.1:${port}/`);
      expect((await landed).status()).toBe(403);
    } finally {
      attacker.close();
    }
    // The same post from the console's own origin, with the session cookie but no token.
    const sameSite = await page.request.post(`${base}/approvals/${id}/decide`, {
      form: { decision: 'approve', tool: 'rotate_secret', digest },
      maxRedirects: 0,
    });
    expect(sameSite.status()).toBe(403);
    await page.goto(`${base}/approvals/${id}`);
    expect(await page.locator('[data-state]').getAttribute('data-state')).toBe('pending');
    expect(scenario.ran.filter((call) => call.arguments['service'] === 'forged')).toHaveLength(0);
  });

  it('an operator sees the session view with its budget bar and why a tool ranks where it does', async () => {
    const page = await newPage();
    await signIn(page, MAIN, TEST_KEYS.operator);
    expect(page.url()).toBe(`${base}/sessions`);
    expect(await page.locator('table meter').count()).toBeGreaterThan(0);
    await page.locator('a[href^="/console/sessions/s-"]').first().click();
    await page.getByLabel('Query, as the model would send it to tool_search').fill('rotate the secret of a service');
    await page.getByRole('button', { name: 'Explain the ranking' }).click();
    await page.waitForURL(/\?q=/);
    expect(await page.locator('.why-hits li').first().textContent()).toContain('rotate_secret');
    expect(await page.locator('.why-hits meter').count()).toBeGreaterThan(1);
    await page.screenshot({ path: join(shots, 'console-session.png'), fullPage: true });
    for (const path of ['/toolsets', '/activity', '/quotas']) {
      const response = await page.goto(`${base}${path}`);
      expect(response?.status()).toBe(200);
    }
    expect(await page.locator('main').textContent()).toContain('heldApprovals');
  });

  it('an operator follows activity live: a search and a call appear without reloading', async () => {
    const page = await newPage();
    await signIn(page, MAIN, TEST_KEYS.operator);
    await page.goto(`${base}/activity`);
    await live(page);
    await page.evaluate('window.stillTheSamePage = true');
    await scenario.searchAndCall(MAIN, 'which services have secrets');
    const rows = page.locator('#activity-rows');
    await expect.poll(() => rows.textContent(), { timeout: 5000 }).toContain('list_services');
    expect(await rows.textContent()).toContain('tool_search');
    expect(await page.evaluate('window.stillTheSamePage')).toBe(true);
  });

  it('is readable on a phone: the approvals page has no sideways scrolling', async () => {
    const page = await newPage({ width: 390, height: 844 });
    await signIn(page, MAIN, TEST_KEYS.alice);
    await scenario.hold(MAIN, { service: 'a-rather-long-service-name-that-could-overflow-a-narrow-screen' });
    await page.reload();
    const overflow = Number(await page.evaluate('document.documentElement.scrollWidth - window.innerWidth'));
    expect(overflow).toBeLessThanOrEqual(1);
    // Every form control has a label.
    const unlabelled = await page.evaluate(
      "[...document.querySelectorAll('input:not([type=hidden])')].filter((input) => input.labels.length === 0).length",
    );
    expect(unlabelled).toBe(0);
  });
});
