import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { CliError } from '../cli-error';
import { intOption, parseCommandArgs } from '../command-args';
import type { CliIo } from '../io';
import { credentialYaml, CredentialKeyError, mintCredentialKey } from '../operator/credential-key';
import { natsConf, natsPasswords } from '../operator/nats-conf';
import { mergeEnvFile } from '../operator/redis-credentials';

export const NATS_USAGE = `Usage: toolsearch credentials nats --tenants T1,T2... --conf FILE --secrets-file FILE
         [--port N] [--store-dir DIR]

Writes a nats-server configuration with the daemon's user and, per tenant, a gateway, a worker, an
approver and an operator user (<tenant>-gateway, -worker, -approver, -operator), each allowed only
its role's subjects
(infra/nats.conf is this for acme and globex). The file holds no password: each user's is an
environment variable, written to --secrets-file (created or updated, mode 0600; existing passwords
are kept). Start nats-server with those variables set. The daemon's are TOOLSEARCH_NATS_USER=
toolsearchd and TOOLSEARCH_NATS_PASSWORD (also written there).`;

export const KEY_USAGE = `Usage: toolsearch credentials key --name NAME --tenants T1,T2|'*' --roles R1,R2 [--json]

Mints a credential key for the daemon (requests carry it as 'Authorization: Bearer KEY'). Roles:
gateway (open and act on its own sessions, change the tenant's toolsets), approver (decide held
calls), operator (read every session, toolset, held call and the audit). Prints the key once and
the entry for the daemon config's 'credentials:' list, which holds only the key's SHA-256.`;

const read = (path: string) => (existsSync(path) ? readFileSync(path, 'utf8') : undefined);

function parseEnv(text: string | undefined): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of (text ?? '').split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0 && !line.startsWith('#')) values[line.slice(0, equals).trim()] = line.slice(equals + 1).trim();
  }
  return values;
}

const splitList = (values: readonly string[] | undefined) =>
  (values ?? [])
    .flatMap((value) => value.split(','))
    .map((value) => value.trim())
    .filter((value) => value !== '');

export function runCredentialsNats(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    tenants: { type: 'string', multiple: true },
    conf: { type: 'string' },
    'secrets-file': { type: 'string' },
    port: { type: 'string' },
    'store-dir': { type: 'string' },
  });
  const tenants = splitList(values.tenants);
  const bad = tenants.find((tenant) => !/^[a-z0-9][a-z0-9-]{0,62}$/.test(tenant));
  if (tenants.length === 0 || bad !== undefined)
    throw new CliError(
      `${bad !== undefined ? `'${bad}' is not a tenant id. ` : ''}name the tenants: --tenants T1,T2.\n\n${NATS_USAGE}`,
    );
  const confPath = values.conf;
  const secretsPath = values['secrets-file'];
  if (confPath === undefined || secretsPath === undefined)
    throw new CliError(`say where the files go: --conf FILE --secrets-file FILE.\n\n${NATS_USAGE}`);
  const port = intOption(values.port, '--port', 1, 65_535);
  const previous = read(secretsPath);
  const passwords = natsPasswords(tenants, parseEnv(previous));
  writeFileSync(
    confPath,
    natsConf(tenants, {
      ...(port !== undefined ? { port } : {}),
      ...(values['store-dir'] !== undefined ? { storeDir: values['store-dir'] } : {}),
    }),
  );
  const set = {
    ...passwords,
    TOOLSEARCH_NATS_USER: 'toolsearchd',
    TOOLSEARCH_NATS_PASSWORD: passwords['TOOLSEARCHD_NATS_PASSWORD'] ?? '',
  };
  writeFileSync(secretsPath, mergeEnvFile(previous, set, []), { mode: 0o600 });
  chmodSync(secretsPath, 0o600);
  io.out(
    `wrote ${confPath}: the daemon's user and ${tenants.length * 4} tenant user(s) (${tenants.join(', ')})\n` +
      `wrote ${secretsPath} (mode 0600): one password variable per user\n` +
      'Start nats-server -c FILE with those variables in its environment; clients use inboxPrefix _INBOX_<user>.\n',
  );
  return 0;
}

export function runCredentialsKey(args: string[], io: CliIo): number {
  const { values } = parseCommandArgs(args, {
    name: { type: 'string' },
    tenants: { type: 'string', multiple: true },
    roles: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  });
  if (values.name === undefined) throw new CliError(`name the credential: --name NAME.\n\n${KEY_USAGE}`);
  let minted;
  try {
    minted = mintCredentialKey({
      name: values.name,
      tenants: splitList(values.tenants),
      roles: splitList(values.roles),
    });
  } catch (error) {
    if (error instanceof CredentialKeyError) throw new CliError(`${error.message}\n\n${KEY_USAGE}`, { cause: error });
    throw error;
  }
  if (values.json) {
    io.out(`${JSON.stringify({ key: minted.key, entry: minted.entry }, null, 2)}\n`);
    return 0;
  }
  io.out(
    `key (shown once; give it to its holder, keep it out of files others read):\n${minted.key}\n\n` +
      `add to the daemon config under 'credentials:':\n${credentialYaml(minted.entry)}\n`,
  );
  return 0;
}
