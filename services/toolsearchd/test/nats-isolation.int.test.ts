import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { connect, type NatsConnection } from 'nats';
import { freePort } from './harness';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const CONF = fileURLToPath(new URL('../../../infra/nats.conf', import.meta.url));

/** Resolves with the first permissions violation the server reports on this connection. */
async function violation(nc: NatsConnection, act: () => void): Promise<string | undefined> {
  act();
  const seen = (async () => {
    for await (const status of nc.status()) {
      if (status.type === 'error' && String(status.data) === 'PERMISSIONS_VIOLATION') return String(status.data);
    }
    return undefined;
  })();
  await nc.flush().catch(() => undefined);
  return Promise.race([seen, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000))]);
}

describe('infra/nats.conf', () => {
  let server: ChildProcess;
  let url = '';
  const open: NatsConnection[] = [];
  const as = async (user: string, password: string): Promise<NatsConnection> => {
    const nc = await connect({ servers: url, user, pass: password, inboxPrefix: `_INBOX_${user}` });
    open.push(nc);
    return nc;
  };

  beforeAll(async () => {
    const port = await freePort();
    const dir = mkdtempSync(join(tmpdir(), 'toolsearch-natsconf-'));
    // The same file, on a free port and a temporary store (a test never uses the shared server).
    const conf = readFileSync(CONF, 'utf8')
      .replace(/^port: \d+/m, `port: ${port}\nhost: 127.0.0.1`)
      .replace(/store_dir: ".*"/, `store_dir: "${dir}"`);
    writeFileSync(join(dir, 'nats.conf'), conf);
    server = spawn('nats-server', ['-c', join(dir, 'nats.conf')], { stdio: 'ignore' });
    url = `nats://127.0.0.1:${port}`;
    for (let i = 0; i < 50; i += 1) {
      try {
        await (await connect({ servers: url, user: 'toolsearchd', pass: 'change-me-daemon' })).close();
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new Error('nats-server with infra/nats.conf did not start');
  });
  afterAll(async () => {
    for (const nc of open) await nc.close().catch(() => undefined);
    server.kill('SIGKILL');
  });

  it("keeps tenant A off tenant B's subjects, both ways", async () => {
    const acme = await as('acme', 'change-me-acme');
    expect(await violation(acme, () => acme.publish('toolsearch.v1.globex.sessions.open'))).toBe(
      'PERMISSIONS_VIOLATION',
    );
    expect(await violation(acme, () => acme.subscribe('toolsearch.v1.globex.>'))).toBe('PERMISSIONS_VIOLATION');
    expect(await violation(acme, () => acme.subscribe('_INBOX_globex.>'))).toBe('PERMISSIONS_VIOLATION');
    expect(await violation(acme, () => acme.subscribe('>'))).toBe('PERMISSIONS_VIOLATION');
  });

  it('lets a tenant use its own subjects and get replies on its own inboxes', async () => {
    const daemon = await as('toolsearchd', 'change-me-daemon');
    daemon.subscribe('toolsearch.v1.acme.sessions.open', {
      callback: (_, message) => message.respond(new TextEncoder().encode('{"ok":true}')),
    });
    await daemon.flush();
    const acme = await as('acme', 'change-me-acme');
    const reply = await acme.request('toolsearch.v1.acme.sessions.open', new Uint8Array(), { timeout: 2000 });
    expect(new TextDecoder().decode(reply.data)).toBe('{"ok":true}');
  });

  it('lets only the approver publish a decision; a session cannot approve its own call', async () => {
    const acme = await as('acme', 'change-me-acme');
    expect(await violation(acme, () => acme.publish('toolsearch.v1.acme.approvals.a1.decide'))).toBe(
      'PERMISSIONS_VIOLATION',
    );
    const approver = await as('acme-approver', 'change-me-acme-approver');
    expect(await violation(approver, () => approver.publish('toolsearch.v1.acme.approvals.a1.decide'))).toBeUndefined();
    expect(await violation(approver, () => approver.publish('toolsearch.v1.globex.approvals.a1.decide'))).toBe(
      'PERMISSIONS_VIOLATION',
    );
  });
});
