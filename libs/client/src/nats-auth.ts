import { readFileSync } from 'node:fs';
import {
  credsAuthenticator,
  nkeyAuthenticator,
  tokenAuthenticator,
  usernamePasswordAuthenticator,
  type ConnectionOptions,
} from 'nats';

/**
 * Where a NATS connection's credentials come from. The daemon fills it from its config keys
 * (`nats.*`), the CLI from the same `TOOLSEARCH_NATS_*` variables. At most one method may be given.
 */
export interface NatsAuthSettings {
  /** One server URL or a comma-separated seed list; an entry may carry `user:password@` or `token@`. */
  readonly url: string;
  readonly user?: string | undefined;
  readonly password?: string | undefined;
  readonly token?: string | undefined;
  /** A file holding a user NKey seed (`SU…`). */
  readonly nkeySeedFile?: string | undefined;
  /** A `.creds` file: a user JWT and its NKey seed. */
  readonly credsFile?: string | undefined;
}

/** The one authentication method a connection uses. */
export type NatsAuth =
  | { readonly kind: 'none' }
  | { readonly kind: 'user'; readonly user: string; readonly password: string }
  | { readonly kind: 'token'; readonly token: string }
  | { readonly kind: 'nkey'; readonly seedFile: string }
  | { readonly kind: 'creds'; readonly file: string };

/** The servers with credentials taken out of them, and the method to authenticate with. */
export interface ResolvedNatsAuth {
  readonly servers: readonly string[];
  readonly auth: NatsAuth;
}

/** Stable codes of NatsAuthError. */
export const NATS_AUTH_ERROR_CODES = {
  /** Two methods, or URL credentials that disagree with the keys. */
  CONFLICT: 'NATS_AUTH_CONFLICT',
  /** A password without a user, an empty URL, and the like. */
  INVALID: 'NATS_AUTH_INVALID',
  /** An NKey seed file or creds file that cannot be read or does not hold what it should. */
  FILE: 'NATS_AUTH_FILE',
} as const;
export type NatsAuthErrorCode = (typeof NATS_AUTH_ERROR_CODES)[keyof typeof NATS_AUTH_ERROR_CODES];

/** NATS credentials that cannot be used as given. The message says where credentials go. */
export class NatsAuthError extends Error {
  constructor(
    readonly code: NatsAuthErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'NatsAuthError';
  }
}

/** Where each credential is configured, for messages shared by the daemon and the CLI. */
export const NATS_AUTH_SOURCES =
  'nats.user + nats.password (TOOLSEARCH_NATS_USER, TOOLSEARCH_NATS_PASSWORD), nats.token (TOOLSEARCH_NATS_TOKEN), ' +
  'nats.nkeySeedFile (TOOLSEARCH_NATS_NKEY_SEED_FILE) or nats.credsFile (TOOLSEARCH_NATS_CREDS_FILE)';

// scheme://userinfo@rest — userinfo stops at the first '/', '@' or ',' (a seed list's separator).
const USERINFO = /^([a-z][a-z0-9+.-]*:\/\/)?(?:([^@/,\s]*)@)?(.*)$/i;

/** Replaces the password or token in every URL of `text` with `***` (user names stay: they help). */
export function redactUrl(text: string): string {
  return text.replace(/([a-z][a-z0-9+.-]*:\/\/)([^@/,\s]*)@/gi, (_match, scheme: string, userinfo: string) => {
    const colon = userinfo.indexOf(':');
    return colon < 0 ? `${scheme}***@` : `${scheme}${userinfo.slice(0, colon)}:***@`;
  });
}

/** Credentials found in one server URL, and the URL without them. */
function splitServer(entry: string): { server: string; auth: NatsAuth } {
  const [, scheme = '', userinfo, rest = ''] = USERINFO.exec(entry) ?? [];
  const server = `${scheme}${rest}`;
  if (userinfo === undefined) return { server, auth: { kind: 'none' } };
  const colon = userinfo.indexOf(':');
  if (colon < 0) return { server, auth: { kind: 'token', token: decodeURIComponent(userinfo) } };
  const user = decodeURIComponent(userinfo.slice(0, colon));
  return { server, auth: { kind: 'user', user, password: decodeURIComponent(userinfo.slice(colon + 1)) } };
}

const same = (a: NatsAuth, b: NatsAuth) => JSON.stringify(a) === JSON.stringify(b);

/** The method the keys name (not the URL), refusing two at once. */
function fromKeys(settings: NatsAuthSettings): NatsAuth {
  const given = (value: string | undefined): value is string => value !== undefined && value !== '';
  const methods: NatsAuth[] = [];
  if (given(settings.user)) methods.push({ kind: 'user', user: settings.user, password: settings.password ?? '' });
  else if (given(settings.password))
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.INVALID,
      'a NATS password is configured without a user: set nats.user (TOOLSEARCH_NATS_USER) too.',
    );
  if (given(settings.token)) methods.push({ kind: 'token', token: settings.token });
  if (given(settings.nkeySeedFile)) methods.push({ kind: 'nkey', seedFile: settings.nkeySeedFile });
  if (given(settings.credsFile)) methods.push({ kind: 'creds', file: settings.credsFile });
  if (methods.length > 1)
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.CONFLICT,
      `NATS credentials are configured ${methods.length} ways (${methods.map((m) => m.kind).join(', ')}); give exactly one of ${NATS_AUTH_SOURCES}.`,
    );
  return methods[0] ?? { kind: 'none' };
}

/**
 * Takes credentials out of the server URLs (the client ignores them there and would connect
 * anonymously) and merges them with the keys. Pure: reads no file. Throws NatsAuthError when two
 * methods are given, or the URL's credentials disagree with the keys'.
 */
export function resolveNatsAuth(settings: NatsAuthSettings): ResolvedNatsAuth {
  const entries = settings.url
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new NatsAuthError(NATS_AUTH_ERROR_CODES.INVALID, 'no NATS server URL is configured.');
  const split = entries.map(splitServer);
  const inUrls = split.map((entry) => entry.auth).filter((auth) => auth.kind !== 'none');
  const keys = fromKeys(settings);
  const url = inUrls[0];
  if (url !== undefined && inUrls.some((auth) => !same(auth, url)))
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.CONFLICT,
      `the NATS server URLs carry different credentials; leave them out of the URLs and set ${NATS_AUTH_SOURCES}.`,
    );
  if (url !== undefined && keys.kind !== 'none' && !same(url, keys))
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.CONFLICT,
      `the NATS URL carries credentials that disagree with the configured ones; credentials go in ${NATS_AUTH_SOURCES}, not in the URL.`,
    );
  return { servers: split.map((entry) => entry.server), auth: keys.kind !== 'none' ? keys : (url ?? keys) };
}

/** A short description of a method for messages: never the secret itself. */
export function describeNatsAuth(auth: NatsAuth): string {
  switch (auth.kind) {
    case 'none':
      return 'no credentials';
    case 'user':
      return `user '${auth.user}'`;
    case 'token':
      return 'a token';
    case 'nkey':
      return `the NKey seed in ${auth.seedFile}`;
    case 'creds':
      return `the creds file ${auth.file}`;
  }
}

function readCredentialFile(path: string, what: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.FILE,
      `cannot read the NATS ${what} ${path}: ${(error as Error).message}`,
      { cause: error },
    );
  }
}

// A user seed: 'SU' and 56 more base32 characters (nkeys' encoding of a 32-byte ed25519 seed).
const USER_SEED = /^SU[A-Z2-7]{56}$/;
// The blocks of a creds file, as the client parses them: a JWT, then a seed.
const CREDS_BLOCK = /-{3,}[^\n]*-{3,}\r?\n\s*([\w.=-]+)\s*\r?\n\s*-{3,}[^\n]*-{3,}/g;

function nkeySeed(path: string): Uint8Array {
  const seed = readCredentialFile(path, 'NKey seed file').trim();
  if (!USER_SEED.test(seed))
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.FILE,
      `the NATS NKey seed file ${path} does not hold a user seed (one line starting with SU, as 'nsc' or 'nk -gen user' write it).`,
    );
  return new TextEncoder().encode(seed);
}

function credsFile(path: string): Uint8Array {
  const text = readCredentialFile(path, 'creds file');
  const blocks = [...text.matchAll(CREDS_BLOCK)].map((match) => match[1] ?? '');
  if (blocks.length < 2 || blocks[0]?.split('.').length !== 3 || !USER_SEED.test(blocks[1] ?? ''))
    throw new NatsAuthError(
      NATS_AUTH_ERROR_CODES.FILE,
      `the NATS creds file ${path} does not hold a user JWT and a user NKey seed (the BEGIN NATS USER JWT and BEGIN USER NKEY SEED blocks that 'nsc generate creds' writes).`,
    );
  return new TextEncoder().encode(text);
}

/**
 * The `servers` and authentication options for `connect()`: credentials out of the URLs, seed
 * and creds files read now (so a bad file fails before any connection). Throws NatsAuthError.
 */
export function natsConnectOptions(settings: NatsAuthSettings): Pick<ConnectionOptions, 'servers' | 'authenticator'> {
  const { servers, auth } = resolveNatsAuth(settings);
  const base = { servers: [...servers] };
  switch (auth.kind) {
    case 'none':
      return base;
    case 'user':
      return { ...base, authenticator: usernamePasswordAuthenticator(auth.user, auth.password) };
    case 'token':
      return { ...base, authenticator: tokenAuthenticator(auth.token) };
    case 'nkey':
      return { ...base, authenticator: nkeyAuthenticator(nkeySeed(auth.seedFile)) };
    case 'creds':
      return { ...base, authenticator: credsAuthenticator(credsFile(auth.file)) };
  }
}

/** The `TOOLSEARCH_NATS_*` variables as settings (the CLI's source; the daemon maps them onto its keys). */
export function natsAuthFromEnv(url: string, env: Readonly<Record<string, string | undefined>>): NatsAuthSettings {
  return {
    url,
    user: env['TOOLSEARCH_NATS_USER'],
    password: env['TOOLSEARCH_NATS_PASSWORD'],
    token: env['TOOLSEARCH_NATS_TOKEN'],
    nkeySeedFile: env['TOOLSEARCH_NATS_NKEY_SEED_FILE'],
    credsFile: env['TOOLSEARCH_NATS_CREDS_FILE'],
  };
}
