import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { connect } from 'nats';
import { afterAll, describe, expect, it } from 'vitest';
import { ToolsearchClient } from '@toolsearch/client';
import { exited, freePort } from './harness';

// `npm start` as a new user runs it: its own NATS and Redis with generated credentials, the daemon
// ready before the banner, and nothing reachable without those credentials.
const START = fileURLToPath(new URL('../../../scripts/start.mjs', import.meta.url));

describe('npm start', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child !== undefined && child.exitCode === null) {
      child.kill('SIGKILL');
      await exited(child);
    }
  });

  it('runs with authentication on, prints how to connect once ready, and stops what it started', async () => {
    const port = await freePort();
    const env: Record<string, string | undefined> = { ...process.env, TOOLSEARCH_HTTP_PORT: String(port) };
    delete env['TOOLSEARCH_NATS_URL'];
    delete env['TOOLSEARCH_REDIS_URL'];
    const started = spawn(process.execPath, [START], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    let out = '';
    started.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm start was not ready in time:\n${out}`)), 110_000);
      started.stdout?.on('data', () => {
        if (out.includes('toolsearchd is ready')) {
          clearTimeout(timer);
          resolve();
        }
      });
      started.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${out}`)));
    });
    // The readiness banner came after the daemon answered /readyz.
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
    const envFile = /\. (\S+\/demo\.env);/.exec(out)?.[1] ?? '';
    expect(statSync(envFile).mode & 0o777).toBe(0o600);
    const vars = Object.fromEntries(
      readFileSync(envFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    const natsUrl = vars['TOOLSEARCH_NATS_URL'] ?? '';
    expect(out).not.toContain(vars['TOOLSEARCH_NATS_PASSWORD']);
    expect(out).not.toContain(vars['TOOLSEARCH_CREDENTIAL']);

    // Nobody gets in anonymously: not NATS, not Redis.
    await expect(connect({ servers: natsUrl, reconnect: false })).rejects.toThrow(/Authorization/i);
    const redisUrl = /Redis at (redis:\/\/\S+)/.exec(out)?.[1] ?? '';
    const anonymous = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
    anonymous.on('error', () => undefined);
    await anonymous.connect().catch(() => undefined);
    await expect(anonymous.get('toolsearch:anything')).rejects.toThrow(/NOAUTH|NOPERM|closed/i);
    anonymous.disconnect();

    // With the printed credentials a client opens a session and searches the demo catalog.
    const user = vars['TOOLSEARCH_NATS_USER'] ?? '';
    const nc = await connect({
      servers: natsUrl,
      user,
      pass: vars['TOOLSEARCH_NATS_PASSWORD'],
      inboxPrefix: `_INBOX_${user}`,
    });
    try {
      const client = new ToolsearchClient(nc, 'demo', {
        credential: vars['TOOLSEARCH_CREDENTIAL'] ?? '',
        timeoutMs: 10_000,
      });
      const { session } = await client.openSession({
        grant: { toolsets: ['mcp-github'] },
        model: { contextLength: 128_000 },
      });
      expect(JSON.stringify((await client.search(session.id, ['create a github issue'])).result)).toContain(
        'create_issue',
      );
      // Every tool of the example catalog the demo lists runs (demo data, labelled as such).
      const demoTools = readFileSync(
        fileURLToPath(new URL('../../../examples/catalogs/workspace.jsonl', import.meta.url)),
        'utf8',
      )
        .trim()
        .split('\n')
        .map(
          (line) =>
            JSON.parse(line) as {
              server: string;
              name: string;
              inputSchema: { properties?: Record<string, { type?: string }>; required?: string[] };
            },
        )
        .filter((tool) => tool.server !== 'filesystem');
      const all = await client.openSession({
        grant: { toolsets: [...new Set(demoTools.map((tool) => `mcp-${tool.server}`))] },
        model: { contextLength: 128_000 },
      });
      const value = (type?: string) =>
        type === 'number' || type === 'integer' ? 1 : type === 'array' ? ['x'] : type === 'boolean' ? true : 'x';
      const { results } = await client.dispatch(
        all.session.id,
        demoTools.map((tool, index) => ({
          id: `c${index}`,
          name: 'tool_call',
          arguments: {
            name: `${tool.server}__${tool.name}`,
            arguments: Object.fromEntries(
              (tool.inputSchema.required ?? []).map((key) => [key, value(tool.inputSchema.properties?.[key]?.type)]),
            ),
          },
        })),
      );
      expect(results).toHaveLength(demoTools.length);
      for (const [index, result] of results.entries())
        expect(JSON.stringify(result), demoTools[index]?.name).toContain('demo data');
      // The same connection without the daemon credential is refused by the daemon.
      await expect(new ToolsearchClient(nc, 'demo').listToolsets()).rejects.toMatchObject({ code: 'UNAUTHENTICATED' });
    } finally {
      await nc.close();
    }

    // The example clients run as the banner prints them.
    for (const example of ['client.mjs', 'mcp-client.mjs']) {
      const run = spawnSync(
        process.execPath,
        [fileURLToPath(new URL(`../../../examples/${example}`, import.meta.url))],
        {
          env: { ...process.env, ...vars },
          encoding: 'utf8',
          timeout: 30_000,
        },
      );
      expect(run.status, `${example}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain('demo data');
    }

    // Ctrl-C stops the daemon and the servers it started, and removes the run's files.
    const runDir = /are in (\S+) \(readable/.exec(out)?.[1] ?? '';
    expect(existsSync(runDir)).toBe(true);
    started.kill('SIGINT');
    await exited(started);
    await expect(connect({ servers: natsUrl, reconnect: false, timeout: 1000 })).rejects.toThrow();
    expect(existsSync(runDir)).toBe(false);
  }, 150_000);

  it('with its HTTP port taken it exits at once with a hint instead of hanging', async () => {
    const { createServer } = await import('node:net');
    const taken = createServer();
    const port = await new Promise<number>((resolve) =>
      taken.listen(0, '127.0.0.1', () => resolve((taken.address() as { port: number }).port)),
    );
    try {
      const run = spawn(process.execPath, [START], {
        env: { ...process.env, TOOLSEARCH_HTTP_PORT: String(port) },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let err = '';
      run.stderr?.on('data', (chunk: Buffer) => (err += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => run.once('exit', resolve));
      expect(code).toBe(1);
      expect(err).toContain('TOOLSEARCH_HTTP_PORT');
    } finally {
      taken.close();
    }
  }, 30_000);
});
