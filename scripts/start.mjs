#!/usr/bin/env node
// `npm start`: runs toolsearchd on this machine with a demo tenant. Installs dependencies when
// missing, uses Redis and NATS at the configured addresses when they answer (TOOLSEARCH_REDIS_URL,
// TOOLSEARCH_NATS_URL), starts local ones otherwise, registers the example catalog for tenant
// `demo`, and prints how to talk to the daemon. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureInstalled } from './ensure-installed.mjs';
import { ensureServices } from './ensure-services.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
ensureInstalled(root);

let services;
try {
  services = await ensureServices();
} catch (error) {
  console.error(`toolsearch: ${error.message}`);
  process.exit(1);
}
for (const what of services.started) console.log(`started ${what}`);

const config = join(mkdtempSync(join(tmpdir(), 'toolsearchd-')), 'demo.yaml');
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
const httpPort = Number(process.env.TOOLSEARCH_HTTP_PORT ?? 8420);
writeFileSync(
  config,
  JSON.stringify({
    log: { level: 'info' },
    // The local NATS and Redis of `npm start` have no authentication (the daemon warns once).
    security: { insecure: true },
    http: { port: httpPort },
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
);

const daemon = spawn(process.execPath, ['--import', 'tsx', 'services/toolsearchd/src/main.ts', '--config', config], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});

const nats = process.env.TOOLSEARCH_NATS_URL ?? 'nats://127.0.0.1:4222';
setTimeout(() => {
  console.log(`
toolsearchd is serving tenant "demo" over NATS at ${nats}: 34 example tools on 8 servers plus the
MCP servers everything, filesystem (on ${sandbox}) and memory from npm.
Open a session and search it from TypeScript:

  import { connect } from 'nats';
  import { ToolsearchClient } from '@toolsearch/client';
  const client = new ToolsearchClient(await connect({ servers: '${nats}' }), 'demo');
  const { session } = await client.openSession({ grant: { toolsets: ['mcp-github', 'mcp-slack', 'mcp-everything', 'mcp-filesystem', 'mcp-memory'] }, model: { contextLength: 128000 } });
  console.log(await client.assemble(session.id));
  console.log((await client.search(session.id, ['create a github issue'])).result);

or with the nats CLI: nats req toolsearch.v1.demo.sessions.open '{"grant":{"toolsets":["mcp-github"]},"model":{"contextLength":128000}}'

MCP clients: http://127.0.0.1:${httpPort}/mcp with the header "Authorization: Bearer ${apiKey}"
(a key for this run; it opens a session with the demo toolsets). For example:
  (cd node_modules/@modelcontextprotocol/inspector-cli/build && node index.js http://127.0.0.1:${httpPort}/mcp \\
    --transport http --method tools/list --header "Authorization: Bearer ${apiKey}")

Operators: npx toolsearch sessions list --tenant demo · toolsets list · tiers show SESSION ·
approvals list · activity --follow. Metrics: http://127.0.0.1:${httpPort}/metrics
The contract (subjects and JSON Schema) is in proto/json-schema/toolsearch-v1.json. Ctrl-C stops.
`);
}, 2500).unref();

const stop = () => daemon.kill('SIGTERM');
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
daemon.on('exit', (code) => {
  services.stop();
  process.exit(code ?? 0);
});
