import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { connect } from 'nats';
import { createUser } from 'nkeys.js';
import { pino, type Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { natsConnectOptions } from '@toolsearch/client';
import type { DaemonConfig } from '../src/config';
import { Daemon } from '../src/daemon';
import { operatorMode, secretFile, startNats, type TestServer } from './auth-servers';
import { cleanup, daemonProcess, exited, testConfig } from './harness';

// Each authentication method against a nats-server of its own that requires it: the daemon must
// really authenticate (the client ignores credentials left in a URL), and say why when it cannot.
const PASSWORD = 'pw-5ecret-never-logged-0004';
const TOKEN = 'tok-5ecret-never-logged-0005';
const CLI = fileURLToPath(new URL('../../toolsearch-cli/bin/toolsearch.mjs', import.meta.url));

/** Captures a logger's lines, to search them for secrets. */
function capture(): { lines: string[]; logger: Logger } {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { lines, logger: pino({ level: 'trace' }, sink) };
}

/** Starts a daemon with these NATS settings, checks it serves, and stops it when the test ends. */
async function serves(nats: Record<string, unknown>, logger = pino({ level: 'silent' })): Promise<DaemonConfig> {
  const config = testConfig({ nats });
  const daemon = new Daemon(config, { logger });
  onTestFinished(async () => {
    // The dispatch adapters' Redis connections finish their handshake after start() returns; one
    // closed in the middle of it rejects a promise nobody holds.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await daemon.close();
    await cleanup(config);
  });
  await daemon.start();
  // The NATS services framework's ping reaches the daemon only through the authenticated account.
  const nc = await connect(natsConnectOptions(config.nats));
  try {
    const reply = await nc.request('$SRV.PING.toolsearch', undefined, { timeout: 2000 });
    expect((JSON.parse(new TextDecoder().decode(reply.data)) as { name: string }).name).toBe('toolsearch');
  } finally {
    await nc.close();
  }
  return config;
}

/** The error `start()` fails with. */
async function startFails(nats: Record<string, unknown>): Promise<Error & { code?: string }> {
  const daemon = new Daemon(testConfig({ nats }), { logger: pino({ level: 'silent' }) });
  try {
    await daemon.start();
  } catch (error) {
    return error as Error & { code?: string };
  } finally {
    await daemon.close();
  }
  throw new Error('the daemon started');
}

describe('NATS credentials', () => {
  let users: TestServer;
  let tokens: TestServer;
  let operator: TestServer;
  let usersUrl = '';
  const nkey = createUser();
  const seedFile = secretFile('daemon.nk', nkey.getSeed());
  const mode = operatorMode();
  const credsFile = secretFile('daemon.creds', mode.creds);

  beforeAll(async () => {
    [users, tokens, operator] = await Promise.all([
      startNats(
        `authorization { users: [ { user: toolsearchd, password: "${PASSWORD}" }, { nkey: ${nkey.getPublicKey()} } ] }`,
      ),
      startNats(`authorization { token: "${TOKEN}" }`),
      startNats(mode.serverConfig),
    ]);
    usersUrl = `nats://127.0.0.1:${users.port}`;
  });
  afterAll(async () => {
    await Promise.all([users?.stop(), tokens?.stop(), operator?.stop()]);
  });

  it('connects with a user and password from the keys', async () => {
    await serves({ url: usersUrl, user: 'toolsearchd', password: PASSWORD });
  });

  it('connects with a token from the keys', async () => {
    await serves({ url: `nats://127.0.0.1:${tokens.port}`, token: TOKEN });
  });

  it('connects with an NKey seed file', async () => {
    await serves({ url: usersUrl, nkeySeedFile: seedFile });
  });

  it('connects with a .creds file to an operator-mode server (JetStream in the account)', async () => {
    await serves({ url: `nats://127.0.0.1:${operator.port}`, credsFile });
  });

  it('takes credentials out of the URL and of a seed list, and never logs the password', async () => {
    const { lines, logger } = capture();
    await serves({ url: `nats://toolsearchd:${PASSWORD}@127.0.0.1:${users.port},${usersUrl}` }, logger);
    await serves({ url: `nats://${TOKEN}@127.0.0.1:${tokens.port}` }, logger);
    const logs = lines.join('');
    expect(logs).toContain('toolsearchd serving');
    expect(logs).toContain(`nats://toolsearchd:***@127.0.0.1:${users.port}`);
    expect(logs).not.toContain(PASSWORD);
    expect(logs).not.toContain(TOKEN);
  });

  it('fails with a clear message when NATS refuses the credentials, naming no secret', async () => {
    const wrong = await startFails({ url: usersUrl, user: 'toolsearchd', password: 'not-the-password' });
    expect(wrong.code).toBe('NATS_AUTH');
    expect(wrong.message).toMatch(
      /^NATS at nats:\/\/127\.0\.0\.1:\d+ refused user 'toolsearchd' \(.*Authorization Violation/i,
    );
    expect(wrong.message).toMatch(
      /check nats\.user \+ nats\.password \(TOOLSEARCH_NATS_USER, TOOLSEARCH_NATS_PASSWORD\)/,
    );
    expect(wrong.message).not.toContain('not-the-password');
    const inUrl = await startFails({ url: `nats://toolsearchd:not-the-password@127.0.0.1:${users.port}` });
    expect(inUrl.message).not.toContain('not-the-password');
    const none = await startFails({ url: usersUrl });
    expect(none.message).toMatch(/refused no credentials/);
    const stranger = secretFile('stranger.nk', createUser().getSeed());
    expect((await startFails({ url: usersUrl, nkeySeedFile: stranger })).message).toMatch(/refused the NKey seed in/);
  });

  it('refuses a creds file that holds no JWT, and two methods at once, as config errors', async () => {
    const bad = await startFails({ url: usersUrl, credsFile: secretFile('bad.creds', 'not a creds file\n') });
    expect(bad.name).toBe('ConfigError');
    expect(bad.message).toMatch(/^nats: the NATS creds file .*bad\.creds does not hold a user JWT/);
    expect(() => testConfig({ nats: { url: usersUrl, token: TOKEN, nkeySeedFile: seedFile } })).toThrow(
      /^nats: NATS credentials are configured 2 ways \(token, nkey\); give exactly one of/,
    );
    expect(() => testConfig({ nats: { url: `nats://u:p@127.0.0.1:${users.port}`, user: 'v', password: 'p' } })).toThrow(
      /credentials go in nats\.user \+ nats\.password/,
    );
  });

  it('runs as a process with the password in the URL and prints it nowhere', async () => {
    const config = testConfig({ nats: { url: `nats://toolsearchd:${PASSWORD}@127.0.0.1:${users.port}` } });
    const path = join(mkdtempSync(join(tmpdir(), 'toolsearchd-natsauth-')), 'config.json');
    writeFileSync(path, JSON.stringify({ ...config, log: { level: 'trace' } }));
    const output: string[] = [];
    onTestFinished(() => cleanup(config));
    const child = await daemonProcess(path, { output }).catch((error: Error) => {
      throw new Error(`${error.message}: ${output.join('')}`);
    });
    onTestFinished(async () => {
      child.kill('SIGKILL');
      await exited(child);
    });
    // 'close' comes after the last output, 'exit' may come before it.
    const closed = new Promise((resolve) => child.once('close', resolve));
    child.kill('SIGTERM');
    await closed;
    expect(output.join('')).toContain('toolsearchd stopped');
    expect(output.join('')).not.toContain(PASSWORD);
  }, 60_000);

  it('lets the CLI authenticate with the same TOOLSEARCH_NATS_* variables', async () => {
    const config = await serves({ url: `nats://127.0.0.1:${tokens.port}`, token: TOKEN });
    const cli = (env: Record<string, string>) =>
      new Promise<{ code: number; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [CLI, 'toolsets', 'list', '--tenant', 'acme'],
          { env: { ...process.env, TOOLSEARCH_NATS_URL: config.nats.url, ...env }, timeout: 30_000 },
          (error, _stdout, stderr) => resolve({ code: error === null ? 0 : Number(error.code ?? 1), stderr }),
        );
      });
    // Exit code 3 is "cannot reach the daemon"; with the token, the daemon answers (0, or 1 if it refuses).
    expect((await cli({ TOOLSEARCH_NATS_TOKEN: TOKEN })).code).not.toBe(3);
    const refused = await cli({});
    expect(refused.code).toBe(3);
    expect(refused.stderr).toMatch(/cannot reach NATS at .*Authorization Violation/i);
    const inUrl = await cli({ TOOLSEARCH_NATS_URL: `nats://wrong-${TOKEN}@127.0.0.1:${tokens.port}` });
    expect(inUrl.code).toBe(3);
    expect(inUrl.stderr).not.toContain(TOKEN);
  });
});
