import { connect, type NatsConnection } from 'nats';
import {
  NatsAuthError,
  natsAuthFromEnv,
  natsConnectOptions,
  redactUrl,
  resolveNatsAuth,
  ToolsearchClient,
} from '@toolsearch/client';
import { TenantIdSchema, ToolsearchWireError } from '@toolsearch/proto';
import { CliError } from '../cli-error';
import { intOption } from '../command-args';
import type { CliIo } from '../io';

/** Options every operator command takes: where the daemon's NATS is and which tenant to act for. */
export const DAEMON_OPTIONS = {
  nats: { type: 'string' },
  tenant: { type: 'string' },
  timeout: { type: 'string' },
} as const;

export const DAEMON_OPTIONS_USAGE = `Connection (operator commands):
  --nats URL       the daemon's NATS (default: $TOOLSEARCH_NATS_URL or nats://127.0.0.1:4222);
                   credentials from the environment, one of: $TOOLSEARCH_NATS_USER and
                   $TOOLSEARCH_NATS_PASSWORD (replies on _INBOX_<user>, or
                   $TOOLSEARCH_NATS_INBOX_PREFIX), $TOOLSEARCH_NATS_TOKEN,
                   $TOOLSEARCH_NATS_NKEY_SEED_FILE or $TOOLSEARCH_NATS_CREDS_FILE
  --tenant ID      the tenant to act for (default: $TOOLSEARCH_TENANT)
                   the daemon's credential key from $TOOLSEARCH_CREDENTIAL (an operator's to read,
                   an approver's to decide held calls; see docs/security.md)
  --timeout MS     how long to wait for each answer (default 5000)`;

/** The daemon could not be reached, or did not answer: exit code 3, distinct from usage errors. */
export class UnreachableError extends CliError {
  override readonly exitCode = 3;
}

/** A request the daemon refused, with its stable code: exit code 1. */
export class RefusedError extends CliError {
  override readonly exitCode = 1;
}

export interface DaemonSession {
  readonly client: ToolsearchClient;
  readonly nc: NatsConnection;
  readonly url: string;
  readonly tenant: string;
}

/**
 * Connects to the daemon's NATS for one tenant, runs `body`, and always closes the connection.
 * Connection problems and refusals become errors that say what to do.
 */
export async function withDaemon<T>(
  values: { nats?: string; tenant?: string; timeout?: string },
  io: CliIo,
  body: (daemon: DaemonSession) => Promise<T>,
): Promise<T> {
  const given = values.nats ?? io.env['TOOLSEARCH_NATS_URL'] ?? 'nats://127.0.0.1:4222';
  const url = redactUrl(given);
  const tenant = values.tenant ?? io.env['TOOLSEARCH_TENANT'];
  if (tenant === undefined || tenant === '')
    throw new CliError('name the tenant: --tenant ID (or set TOOLSEARCH_TENANT).');
  if (!TenantIdSchema.safeParse(tenant).success)
    throw new CliError(`'${tenant}' is not a tenant id (1–63 of a-z, 0-9 and -, starting with a letter or digit).`);
  const timeoutMs = intOption(values.timeout, '--timeout (milliseconds)', 1, 600_000) ?? 5000;
  let nc: NatsConnection;
  try {
    nc = await connect({
      ...credentials(given, io.env),
      name: 'toolsearch-cli',
      timeout: Math.min(timeoutMs, 5000),
      maxReconnectAttempts: 0,
    });
  } catch (error) {
    if (error instanceof NatsAuthError) throw new CliError(error.message);
    throw new UnreachableError(
      `cannot reach NATS at ${url} (${describe(error)}). Is toolsearchd running? Start it with 'npm start', or point --nats (TOOLSEARCH_NATS_URL) at the daemon's NATS.`,
    );
  }
  try {
    // The daemon's own credential check: a key configured by its sha256 (never from arguments).
    const credential = io.env['TOOLSEARCH_CREDENTIAL'];
    const client = new ToolsearchClient(nc, tenant, { timeoutMs, ...(credential ? { credential } : {}) });
    return await body({ client, nc, url, tenant });
  } catch (error) {
    throw explain(error, url, tenant, timeoutMs);
  } finally {
    await nc.close().catch(() => undefined);
  }
}

/**
 * Servers and credentials from the environment (never from arguments, which other users can see),
 * read the way the daemon reads them (libs/client nats-auth.ts). A user's replies come back on its
 * own inbox prefix, `_INBOX_<user>`, as infra/nats.conf allows.
 */
function credentials(url: string, env: CliIo['env']) {
  const settings = natsAuthFromEnv(url, env);
  const { auth } = resolveNatsAuth(settings);
  const inboxPrefix = env['TOOLSEARCH_NATS_INBOX_PREFIX'] ?? (auth.kind === 'user' ? `_INBOX_${auth.user}` : undefined);
  return { ...natsConnectOptions(settings), ...(inboxPrefix ? { inboxPrefix } : {}) };
}

function describe(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  const message = (error as Error).message ?? String(error);
  return typeof code === 'string' && !message.includes(code) ? `${code}: ${message}` : message;
}

function explain(error: unknown, url: string, tenant: string, timeoutMs: number): unknown {
  if (error instanceof CliError) return error;
  if (error instanceof ToolsearchWireError && error.code === 'UNAUTHENTICATED')
    return new RefusedError(
      `${error.code}: the daemon needs a credential: set TOOLSEARCH_CREDENTIAL to a key configured for tenant '${tenant}' (an operator's, or an approver's to decide held calls).`,
    );
  if (error instanceof ToolsearchWireError) return new RefusedError(`${error.code}: ${error.message}`);
  const code = String((error as { code?: unknown }).code ?? '');
  const message = (error as Error).message ?? '';
  if (code === '503' || /no responders/i.test(message))
    return new UnreachableError(
      `NATS at ${url} answered, but no toolsearchd serves tenant '${tenant}' there. Start the daemon ('npm start') or check --nats and --tenant.`,
    );
  if (code === 'TIMEOUT' || /timeout/i.test(message))
    return new UnreachableError(
      `toolsearchd did not answer within ${timeoutMs} ms (raise --timeout, or check the daemon).`,
    );
  if (code === 'PERMISSIONS_VIOLATION' || /permission/i.test(message))
    return new UnreachableError(
      `NATS refused this request for tenant '${tenant}': the credentials in TOOLSEARCH_NATS_USER are not allowed its subjects.`,
    );
  return error;
}
