#!/usr/bin/env node
// `npm start`: runs toolsearchd on this machine with a demo tenant. Installs dependencies when
// missing, uses Redis and NATS at the configured addresses when they answer (TOOLSEARCH_REDIS_URL,
// TOOLSEARCH_NATS_URL), starts local ones otherwise, registers the example catalog for tenant
// `demo`, and prints how to talk to the daemon. Ctrl-C stops everything it started.
import { spawn } from 'node:child_process';
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
writeFileSync(
  config,
  [
    'log:',
    '  level: info',
    'tenants:',
    '  demo:',
    `    catalogs: [${JSON.stringify(join(root, 'examples/catalogs/workspace.jsonl'))}]`,
    '',
  ].join('\n'),
);

const daemon = spawn(process.execPath, ['--import', 'tsx', 'services/toolsearchd/src/main.ts', '--config', config], {
  cwd: root,
  stdio: 'inherit',
  env: process.env,
});

const nats = process.env.TOOLSEARCH_NATS_URL ?? 'nats://127.0.0.1:4222';
setTimeout(() => {
  console.log(`
toolsearchd is serving tenant "demo" (34 example tools on 8 servers) over NATS at ${nats}.
Open a session and search it from TypeScript:

  import { connect } from 'nats';
  import { ToolsearchClient } from '@toolsearch/client';
  const client = new ToolsearchClient(await connect({ servers: '${nats}' }), 'demo');
  const { session } = await client.openSession({ grant: { toolsets: ['mcp-github', 'mcp-slack'] }, model: { contextLength: 128000 } });
  console.log(await client.assemble(session.id));
  console.log((await client.search(session.id, ['create a github issue'])).result);

or with the nats CLI: nats req toolsearch.v1.demo.sessions.open '{"grant":{"toolsets":["mcp-github"]},"model":{"contextLength":128000}}'
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
