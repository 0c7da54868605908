// toolsearchd entry point, bundled to `services/toolsearchd/dist/main.js` (`npx toolsearchd [--config FILE]`; from
// the sources in development: `node --import tsx services/toolsearchd/src/main.ts`).
// Reads the config (YAML file + TOOLSEARCH_* environment), starts the daemon, registers the
// configured tenants' catalogs, and drains gracefully on SIGTERM/SIGINT.
import { readFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { parseCatalogFiles } from '@toolsearch/catalog';
import { redactUrl } from '@toolsearch/client';
import { ConfigError, loadDaemonConfig } from './config';
import { Daemon } from './daemon';

// Grow the heap by at most 20 % over the live size after each major GC (V8's default factor is up
// to 4×). Bursts such as 10,000 session opens then peak near 300 MiB instead of near 600 MiB, with
// no measured throughput cost (BENCHMARKS.md). Set before the daemon allocates anything.
if (!process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent')))
  setFlagsFromString('--heap-growing-percent=20');

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { config: { type: 'string' } }, strict: true });
  let config;
  try {
    config = loadDaemonConfig(values.config ?? process.env['TOOLSEARCH_CONFIG'], process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`toolsearchd: config error: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
  const logger = pino({
    level: config.log.level,
    // The last line of defence for secrets: no URL password or token reaches a log line.
    hooks: { streamWrite: redactUrl },
    ...(process.stdout.isTTY ? { transport: { target: 'pino-pretty' } } : {}),
  });
  // The operator's catalogs are read before anything is served: a bad one stops the start, and
  // their toolset ids (with every configured MCP server's) are the operator's from the first request.
  const catalogsOf = new Map<string, ReturnType<typeof parseCatalogs>>();
  for (const [tenant, { catalogs }] of Object.entries(config.tenants))
    catalogsOf.set(tenant, parseCatalogs(tenant, catalogs));
  const operatorToolsets = Object.fromEntries(
    Object.entries(config.tenants).map(([tenant, { mcp }]) => [
      tenant,
      [
        ...(catalogsOf.get(tenant)?.toolsets.map((toolset) => toolset.id) ?? []),
        ...mcp.map((server) => `mcp-${server.name}`),
      ],
    ]),
  );
  // A promise some library left without a handler (a Redis connection closed while it was still
  // coming up, at shutdown) is logged; it must not take every tenant's daemon down.
  process.on('unhandledRejection', (reason) =>
    logger.error({ err: reason instanceof Error ? reason.message : String(reason) }, 'unhandled rejection'),
  );
  // Listened for before anything starts: a SIGTERM that came between "serving" and the end of
  // start-up (catalogs, MCP servers) used to end the process at once, without closing the daemon.
  // A stop that start-up or closing does not let finish (a server that never answers) ends the
  // process after STOP_GRACE_MS.
  const stopRequested = new Promise<void>((resolve) => {
    const stop = () => {
      resolve();
      setTimeout(() => {
        process.stderr.write(`toolsearchd: not stopped within ${STOP_GRACE_MS} ms; exiting\n`);
        process.exit(1);
      }, STOP_GRACE_MS).unref();
    };
    process.once('SIGTERM', stop);
    process.once('SIGINT', stop);
  });
  const daemon = new Daemon(config, { logger, env: process.env, operatorToolsets });
  try {
    await daemon.start();
  } catch (error) {
    // Said first (closing connections that are still coming up can end the process abruptly), then
    // the half-started daemon is stopped: it must not stay connected and serving.
    const config = error instanceof ConfigError;
    process.stderr.write(`toolsearchd: ${config ? 'config error: ' : ''}${redactUrl((error as Error).message)}\n`);
    await daemon.close().catch(() => undefined);
    // Connections that were still being opened may keep the event loop alive: end here.
    process.exit(config ? 2 : 1);
  }
  for (const [tenant, { mcp }] of Object.entries(config.tenants)) {
    const parsed = catalogsOf.get(tenant) ?? parseCatalogs(tenant, []);
    await daemon.registerToolsets(tenant, parsed.toolsets);
    logger.info({ tenant, toolsets: parsed.toolsets.length, tools: parsed.toolCount }, 'catalogs registered');
    for (const server of mcp) {
      try {
        const { tools } = await daemon.attachMcp(tenant, server);
        logger.info({ tenant, server: server.name, tools }, 'MCP server attached');
      } catch (error) {
        logger.error(
          { tenant, server: server.name, err: (error as Error).message },
          'MCP server could not be attached',
        );
      }
    }
  }
  await stopRequested;
  await daemon.close();
  return 0;
}

/** How long a stop may take, start-up included, before the process ends anyway. */
const STOP_GRACE_MS = 20_000;

/** A tenant's configured catalog files, parsed; a file that does not parse is a config error. */
function parseCatalogs(tenant: string, paths: readonly string[]) {
  let files;
  try {
    files = paths.map((path) => ({ source: path, text: readFileSync(path, 'utf8') }));
  } catch (error) {
    throw new ConfigError(`tenants.${tenant}.catalogs: ${(error as Error).message}`);
  }
  const parsed = parseCatalogFiles(files);
  if (!parsed.ok)
    throw new ConfigError(
      `tenants.${tenant}.catalogs: ${parsed.error.source}:${parsed.error.line}: ${parsed.error.message}`,
    );
  return parsed;
}

main().then(
  (code) => (process.exitCode = code),
  (error: Error) => {
    // A refusal to start for lack of authentication (security.insecure) is a config error too.
    const config = error instanceof ConfigError;
    process.stderr.write(`toolsearchd: ${config ? 'config error: ' : ''}${redactUrl(error.message)}\n`);
    process.exitCode = config ? 2 : 1;
  },
);
