#!/usr/bin/env node
// `npm start`: runs toolsearchd on this machine with a demo tenant, authentication on. Installs
// dependencies when missing; starts this run's own NATS and Redis on free loopback ports with
// generated users and passwords (scripts/secure-services.mjs), or uses yours when
// TOOLSEARCH_NATS_URL / TOOLSEARCH_REDIS_URL are set (with their credentials in
// TOOLSEARCH_NATS_USER/PASSWORD and TOOLSEARCH_REDIS_USERNAME/PASSWORD); registers the example
// catalog and three MCP servers for tenant `demo`; waits until the daemon is ready, then prints how
// to connect. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { answers } from './ensure-services.mjs';
import { ensureInstalled } from './ensure-installed.mjs';
import { startSecureServices } from './secure-services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
ensureInstalled(root);

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

// The demo tenant: the example catalog plus three real MCP servers from npm (stdio).
const sandbox = mkdtempSync(join(tmpdir(), 'toolsearch-files-'));
const server = (name, pkg, extra = []) => ({
  name,
  transport: { type: 'stdio', command: process.execPath, args: [join(root, 'node_modules', pkg), ...extra] },
  supports_parallel_tool_calls: true,
});
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
const config = join(services?.dir ?? mkdtempSync(join(tmpdir(), 'toolsearchd-')), 'demo.yaml');
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
        catalogs: [join(root, 'examples/catalogs/workspace.jsonl')],
        mcp: [
          server('everything', '@modelcontextprotocol/server-everything/dist/index.js', ['stdio']),
          server('filesystem', '@modelcontextprotocol/server-filesystem/dist/index.js', [sandbox]),
          server('memory', '@modelcontextprotocol/server-memory/dist/index.js'),
        ],
      },
    },
  }),
  { mode: 0o600 },
);

const daemon = spawn(process.execPath, ['--import', 'tsx', 'services/toolsearchd/src/main.ts', '--config', config], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, ...(services?.daemonEnv ?? {}) },
});

/** Resolves once /readyz answers 200 (the daemon serves NATS and reaches Redis); false if it exits first. */
async function ready() {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline && daemon.exitCode === null) {
    try {
      if ((await fetch(`http://127.0.0.1:${httpPort}/readyz`)).ok) return true;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return false;
}

const stop = () => daemon.kill('SIGTERM');
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
daemon.on('exit', (code) => {
  services?.stop();
  process.exit(code ?? 0);
});

if (!(await ready())) {
  console.error('toolsearch: the daemon did not become ready; see its messages above.');
  stop();
  setTimeout(() => process.exit(1), 3000).unref();
} else {
  const client = services?.clients.demo;
  const env = client?.file;
  console.log(`
toolsearchd is ready: tenant "demo" with 34 example tools on 8 servers plus the MCP servers
everything, filesystem (on ${sandbox}) and memory from npm. NATS and Redis require credentials;
this run's are in ${services?.dir ?? '(your own servers)'} (readable by you only).
${
  client === undefined
    ? ''
    : `
Operator CLI (the demo key has the gateway, operator and approver roles):
  set -a; . ${env}; set +a
  npx toolsearch sessions list · toolsets list · tiers show SESSION · approvals list · activity --follow

From TypeScript (a NATS user for the tenant and the daemon credential key, both in ${env}):
  import { connect } from 'nats';
  import { ToolsearchClient } from '@toolsearch/client';
  const nc = await connect({ servers: '${services.natsUrl}', user: '${client.user}',
    pass: process.env.TOOLSEARCH_NATS_PASSWORD, inboxPrefix: '_INBOX_${client.user}' });
  const client = new ToolsearchClient(nc, 'demo', { credential: process.env.TOOLSEARCH_CREDENTIAL });
  const { session } = await client.openSession({ grant: { toolsets: ['mcp-github', 'mcp-everything'] }, model: { contextLength: 128000 } });
  console.log((await client.search(session.id, ['create a github issue'])).result);
`
}
MCP clients: http://127.0.0.1:${httpPort}/mcp with the header "Authorization: Bearer ${apiKey}"
(a key for this run; it opens a session with the demo toolsets). For example:
  (cd node_modules/@modelcontextprotocol/inspector-cli/build && node index.js http://127.0.0.1:${httpPort}/mcp \\
    --transport http --method tools/list --header "Authorization: Bearer ${apiKey}")

Metrics: http://127.0.0.1:${httpPort}/metrics. Security model: docs/security.md. Ctrl-C stops.
`);
}
