#!/usr/bin/env node
// `npm start`: runs toolsearchd on this machine with a demo tenant, authentication on. Installs
// dependencies when missing and compiles the daemon when its bundle is missing or older than its
// sources (scripts/build.mjs, about a second), then runs it with plain node as deployments do; starts this run's own NATS and Redis on free loopback ports with
// generated users and passwords (scripts/secure-services.mjs), or uses yours when
// TOOLSEARCH_NATS_URL / TOOLSEARCH_REDIS_URL are set (with their credentials in
// TOOLSEARCH_NATS_USER/PASSWORD and TOOLSEARCH_REDIS_USERNAME/PASSWORD); registers the example
// catalog and three MCP servers for tenant `demo`; waits until the daemon is ready, then prints how
// to connect. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundlePath, ensureBuilt } from './build.mjs';
import { answers } from './ensure-services.mjs';
import { ensureInstalled } from './ensure-installed.mjs';
import { startSecureServices } from './secure-services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
ensureInstalled(root);
try {
  if ((await ensureBuilt(['toolsearchd'])).length > 0) console.log(`compiled ${bundlePath('toolsearchd')}`);
} catch (error) {
  console.error(`toolsearch: the daemon does not compile: ${error.message}`);
  process.exit(1);
}

const fail = (message) => {
  console.error(`toolsearch: ${message}`);
  process.exit(1);
};

const httpPort = Number(process.env.TOOLSEARCH_HTTP_PORT ?? 8420);
if (await answers('127.0.0.1', httpPort))
  fail(
    `port ${httpPort} is taken (another toolsearchd?). Stop that, or pick another port: TOOLSEARCH_HTTP_PORT=8430 npm start`,
  );

const ownServers = process.env.TOOLSEARCH_NATS_URL === undefined && process.env.TOOLSEARCH_REDIS_URL === undefined;
let services;
if (ownServers) {
  try {
    services = await startSecureServices(root, ['demo']);
  } catch (error) {
    fail(error.message);
  }
  console.log(
    `started NATS at ${services.natsUrl} and Redis at ${services.redisUrl} with authentication (secrets in ${services.dir})`,
  );
}

// The demo tenant: the example catalog's servers, each served by examples/demo-mcp-server.mjs with
// canned demo data (so every listed tool runs), plus three real MCP servers from npm (stdio).
const runDir = services?.dir ?? mkdtempSync(join(tmpdir(), 'toolsearchd-'));
const sandbox = mkdtempSync(join(tmpdir(), 'toolsearch-files-'));
const server = (name, pkg, extra = [], options = {}) => ({
  name,
  transport: {
    type: 'stdio',
    command: process.execPath,
    args: [join(root, pkg), ...extra],
    ...(options.env ? { env: options.env } : {}),
  },
  // Only servers whose calls may run side by side: the memory and filesystem servers write state
  // that a later call of the same turn may read, so their calls keep their order.
  supports_parallel_tool_calls: options.parallel ?? true,
});
const DEMO_SERVERS = ['github', 'slack', 'linear', 'postgres', 'google-calendar', 'weather', 'jp-transit'];
// An MCP endpoint key for this run only; the config holds just its digest.
const apiKey = `tsk_${randomBytes(24).toString('base64url')}`;
const demoToolsets = [
  'mcp-github',
  'mcp-slack',
  'mcp-linear',
  'mcp-postgres',
  'mcp-google-calendar',
  'mcp-weather',
  'mcp-jp-transit',
  'mcp-everything',
  'mcp-filesystem',
  'mcp-memory',
];
const config = join(runDir, 'demo.yaml');
writeFileSync(
  config,
  JSON.stringify({
    log: { level: 'info' },
    http: { port: httpPort },
    credentials: services?.credentials ?? [],
    tenants: {
      demo: {
        apiKeys: [
          {
            name: 'demo',
            sha256: createHash('sha256').update(apiKey).digest('hex'),
            grant: { toolsets: demoToolsets },
            model: { contextLength: 128000 },
          },
        ],
        mcp: [
          ...DEMO_SERVERS.map((name) => server(name, 'examples/demo-mcp-server.mjs', [name])),
          server('everything', 'node_modules/@modelcontextprotocol/server-everything/dist/index.js', ['stdio']),
          server('filesystem', 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js', [sandbox], {
            parallel: false,
          }),
          server('memory', 'node_modules/@modelcontextprotocol/server-memory/dist/index.js', [], {
            parallel: false,
            // Its knowledge graph goes into this run's folder, not into node_modules.
            env: { MEMORY_FILE_PATH: join(runDir, 'memory.jsonl') },
          }),
        ],
      },
    },
  }),
  { mode: 0o600 },
);

const daemon = spawn(process.execPath, [bundlePath('toolsearchd'), '--config', config], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...(services?.daemonEnv ?? {}) },
});

/** How many of the demo tenant's toolsets are attached and available (asked as the demo's operator). */
async function availableToolsets(nc) {
  const { headers, JSONCodec } = await import('nats');
  const auth = headers();
  auth.set('Authorization', `Bearer ${services.clients.demo.env.TOOLSEARCH_CREDENTIAL}`);
  const codec = JSONCodec();
  const reply = codec.decode(
    (await nc.request('toolsearch.v1.demo.toolsets.list', codec.encode({}), { headers: auth, timeout: 2000 })).data,
  );
  return reply.ok ? reply.toolsets.filter((toolset) => toolset.unavailable === undefined).length : 0;
}

/**
 * Resolves once the daemon answers both ways a client will reach it — its NATS service answers
 * `$SRV.PING` and `/readyz` is 200 — and every demo MCP server is attached; false if it exits first.
 */
async function ready() {
  const deadline = Date.now() + 120_000;
  const { connect } = await import('nats');
  // `$SRV.PING` is asked as the daemon's own user; the toolsets as the demo's operator (the daemon
  // answers a tenant's requests only on that tenant's inboxes).
  const nc = services
    ? await connect({
        servers: services.natsUrl,
        user: 'toolsearchd',
        pass: services.daemonEnv.TOOLSEARCH_NATS_PASSWORD,
      }).catch(() => undefined)
    : undefined;
  const demo = services?.clients.demo;
  const operator = demo
    ? await connect({
        servers: services.natsUrl,
        user: demo.user,
        pass: demo.env.TOOLSEARCH_NATS_PASSWORD,
        inboxPrefix: `_INBOX_${demo.user}`,
      }).catch(() => undefined)
    : undefined;
  try {
    while (Date.now() < deadline && daemon.exitCode === null) {
      try {
        const readyz = (await fetch(`http://127.0.0.1:${httpPort}/readyz`)).ok;
        const pinged = nc === undefined || (await nc.request('$SRV.PING.toolsearch', undefined, { timeout: 500 }));
        const attached = readyz && operator !== undefined ? await availableToolsets(operator) : DEMO_SERVERS.length + 3;
        if (readyz && pinged && attached >= DEMO_SERVERS.length + 3) return true;
      } catch {
        // Not listening yet.
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return false;
  } finally {
    await nc?.close();
    await operator?.close();
  }
}

const stop = () => daemon.kill('SIGTERM');
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
daemon.on('exit', (code) => {
  services?.stop();
  // Nothing of this run stays behind: secrets, config, the demo's files and memory graph.
  for (const dir of [runDir, sandbox]) rmSync(dir, { recursive: true, force: true });
  process.exit(code ?? 0);
});

if (!(await ready())) {
  console.error('toolsearch: the daemon did not become ready; see its messages above.');
  stop();
  setTimeout(() => process.exit(1), 3000).unref();
} else {
  const client = services?.clients.demo;
  const env = client?.file;
  if (env !== undefined)
    appendFileSync(env, `TOOLSEARCH_MCP_URL=http://127.0.0.1:${httpPort}/mcp\nTOOLSEARCH_API_KEY=${apiKey}\n`);
  const tools = (DEMO_SERVERS.length + 3).toString();
  console.log(`
toolsearchd is ready: tenant "demo" on ${tools} MCP servers — the example catalog's ${DEMO_SERVERS.join(', ')}
(demo data: they answer every call with a canned result and reach no real service) and the real
everything, filesystem (on ${sandbox}) and memory servers from npm. NATS and Redis require
credentials; this run's are in ${runDir} (readable by you only, removed on Ctrl-C).
${
  env === undefined
    ? `
Clients need a NATS user of your servers and a daemon credential key (docs/security.md).
`
    : `
Try it (the env file holds the NATS user and password, the tenant, a demo key with the gateway,
operator and approver roles, and an MCP API key):

  set -a; . ${env}; set +a
  node examples/client.mjs "create a github issue"   # NATS: open a session, search, call, close
  node examples/mcp-client.mjs                       # MCP: list tools, search, call
  npx toolsearch sessions list                       # operators: also toolsets list, tiers show SESSION,
                                                     # approvals list / approve ID, activity --follow
`
}
MCP clients: http://127.0.0.1:${httpPort}/mcp with the header "Authorization: Bearer ${apiKey}"
(a key for this run; it opens a session with the demo toolsets).

Web console for approvers and operators: http://127.0.0.1:${httpPort}/console (sign in with tenant
"demo" and the key in TOOLSEARCH_CREDENTIAL; docs/console.md).

Metrics: http://127.0.0.1:${httpPort}/metrics. Security model: docs/security.md. Ctrl-C stops.
`);
}
