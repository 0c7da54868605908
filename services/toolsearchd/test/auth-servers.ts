import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect as tcpConnect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, createOperator, createUser, type KeyPair } from 'nkeys.js';
import { exited, freePort } from './harness';

/** A server a test started for itself, on a free port and a temporary folder. */
export interface TestServer {
  readonly port: number;
  readonly dir: string;
  stop(): Promise<void>;
}

/** Resolves once something accepts connections on the port (the server's listener is up). */
async function listening(port: number, child: ChildProcess, what: string, log: string[]): Promise<void> {
  for (let i = 0; i < 100; i += 1) {
    if (child.exitCode !== null) throw new Error(`${what} exited with ${child.exitCode}: ${log.join('')}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${what} did not start on port ${port}`);
}

async function startServer(what: string, command: string, args: (dir: string, port: number) => string[]) {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `toolsearch-${what}-`));
  const child = spawn(command, args(dir, port), { stdio: ['ignore', 'pipe', 'pipe'] });
  // Kept for the message when the server does not start (a bad config says why on its output).
  const log: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => log.length < 50 && log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.length < 50 && log.push(chunk.toString()));
  const server: TestServer = {
    port,
    dir,
    stop: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
  };
  try {
    await listening(port, child, what, log);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

/** A nats-server with JetStream whose config ends with `auth` (an `authorization {…}` block, or operator lines). */
export function startNats(auth: string): Promise<TestServer> {
  return startServer('nats', 'nats-server', (dir, port) => {
    const conf = join(dir, 'nats.conf');
    writeFileSync(conf, `port: ${port}\nhost: 127.0.0.1\njetstream { store_dir: "${dir}" }\n${auth}\n`);
    return ['-c', conf];
  });
}

/** A redis-server that keeps nothing on disk, with extra config lines (`requirepass …`, `user …`). */
export function startRedis(lines: readonly string[]): Promise<TestServer> {
  return startServer('redis', 'redis-server', (dir, port) => {
    const conf = join(dir, 'redis.conf');
    writeFileSync(
      conf,
      [`port ${port}`, 'bind 127.0.0.1', `dir ${dir}`, 'save ""', 'appendonly no', ...lines].join('\n'),
    );
    return [conf];
  });
}

/** Writes a secret to a file of its own (mode 600) and returns the path. */
export function secretFile(name: string, content: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'toolsearch-secret-')), name);
  writeFileSync(path, content, { mode: 0o600 });
  return path;
}

const b64url = (data: string | Uint8Array) => Buffer.from(data).toString('base64url');

/**
 * A NATS JWT (v2) signed by `issuer`: the format `nsc` writes, minted here with nkeys.js so the
 * tests need no tool beyond nats-server. The server checks the signature and the claims' shape.
 */
function jwt(issuer: KeyPair, subject: KeyPair, name: string, nats: Record<string, unknown>): string {
  const header = b64url(JSON.stringify({ typ: 'JWT', alg: 'ed25519-nkey' }));
  const claims = {
    iat: Math.floor(Date.now() / 1000),
    iss: issuer.getPublicKey(),
    name,
    sub: subject.getPublicKey(),
    nats,
  };
  const jti = createHash('sha256').update(JSON.stringify(claims)).digest('hex').toUpperCase();
  const body = b64url(JSON.stringify({ jti, ...claims }));
  const signature = b64url(issuer.sign(new TextEncoder().encode(`${header}.${body}`)));
  return `${header}.${body}.${signature}`;
}

/**
 * An operator, one account with JetStream and one user: the server config lines (MEMORY resolver
 * with the account preloaded) and the user's `.creds` file text.
 */
export function operatorMode(): { serverConfig: string; creds: string } {
  const operator = createOperator();
  const account = createAccount();
  // JetStream needs a system account in operator mode.
  const system = createAccount();
  const user = createUser();
  const unlimited = { subs: -1, data: -1, payload: -1 };
  const accountJwt = jwt(operator, account, 'toolsearch', {
    limits: {
      ...unlimited,
      ...{ imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 },
      // Storage limits other than 0 enable JetStream for the account (the registry is a KV bucket).
      ...{ mem_storage: -1, disk_storage: -1, streams: -1, consumer: -1 },
    },
    default_permissions: { pub: {}, sub: {} },
    type: 'account',
    version: 2,
  });
  const systemJwt = jwt(operator, system, 'SYS', {
    limits: { ...unlimited, imports: -1, exports: -1, wildcards: true, conn: -1, leaf: -1 },
    type: 'account',
    version: 2,
  });
  const userJwt = jwt(account, user, 'toolsearchd', { pub: {}, sub: {}, ...unlimited, type: 'user', version: 2 });
  const seed = new TextDecoder().decode(user.getSeed());
  return {
    serverConfig: [
      `operator: ${jwt(operator, operator, 'test-operator', { type: 'operator', version: 2 })}`,
      `system_account: ${system.getPublicKey()}`,
      'resolver: MEMORY',
      `resolver_preload: { ${account.getPublicKey()}: ${accountJwt}, ${system.getPublicKey()}: ${systemJwt} }`,
    ].join('\n'),
    creds: [
      '-----BEGIN NATS USER JWT-----',
      userJwt,
      '------END NATS USER JWT------',
      '',
      '-----BEGIN USER NKEY SEED-----',
      seed,
      '------END USER NKEY SEED------',
      '',
    ].join('\n'),
  };
}
