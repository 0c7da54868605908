import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { CredentialRole } from '../identity/credentials';
import type { RedisClient } from '../redis-client';
import { RedisKeys } from '../redis-keys';
import type { ConsoleConfig } from './console-config';

/** The cookie of a signed-in console session: a random id; Redis holds what it stands for. */
export const SESSION_COOKIE = 'ts_console';
/** The sign-in form's CSRF cookie (double submit: the form carries the same random value). */
export const PRE_SIGN_IN_COOKIE = 'ts_console_pre';
const COOKIE_PATH = '/console';
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What a console session stands for. The key itself is never stored: only its sha256, as in the config. */
export interface ConsoleSession {
  readonly tenant: string;
  /** The credential key's name: who decides, in the approval record. */
  readonly name: string;
  readonly keyDigest: string;
  /** The token every form of this session carries (compared in constant time). */
  readonly csrf: string;
  readonly createdAt: number;
}

/** A console session as a request sees it, with the roles its key has in the config now. */
export interface SignedIn extends ConsoleSession {
  readonly roles: ReadonlySet<CredentialRole>;
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const randomId = () => randomBytes(32).toString('base64url');
const COOKIE_VALUE = /^[A-Za-z0-9_-]{16,128}$/;

/** Whether two secrets are equal, in time that does not depend on where they differ. */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(sha256(a));
  const right = Buffer.from(sha256(b));
  return timingSafeEqual(left, right) && a.length > 0;
}

/** The named cookie of a request, when it has a well-formed value (at most 4 KiB of header is read). */
export function cookieOf(req: IncomingMessage, name: string): string | undefined {
  const header = (req.headers.cookie ?? '').slice(0, 4096);
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return COOKIE_VALUE.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * Console sign-ins, in Redis so every replica knows them (`<prefix>console:<sha256 of the
 * cookie>`, expiring with the session). The cookie is a random 256-bit id, HttpOnly, SameSite
 * Strict, path `/console`, and Secure unless the page is served on a loopback name.
 */
export class ConsoleSessions {
  readonly #redis: RedisClient;
  readonly #keys: RedisKeys;
  readonly #config: ConsoleConfig;

  constructor(redis: RedisClient, prefix: string, config: ConsoleConfig) {
    this.#redis = redis;
    this.#keys = new RedisKeys(prefix);
    this.#config = config;
  }

  /** Stores a new session; returns its cookie value. */
  async create(session: Omit<ConsoleSession, 'csrf' | 'createdAt'>): Promise<string> {
    const id = randomId();
    const stored: ConsoleSession = { ...session, csrf: randomId(), createdAt: Date.now() };
    await this.#redis.set(
      this.#keys.consoleSession(sha256(id)),
      JSON.stringify(stored),
      'PX',
      this.#config.sessionTtlMs,
    );
    return id;
  }

  /** The session a request's cookie names, if it is still there. */
  async load(req: IncomingMessage): Promise<ConsoleSession | undefined> {
    const id = cookieOf(req, SESSION_COOKIE);
    if (id === undefined) return undefined;
    const raw = await this.#redis.get(this.#keys.consoleSession(sha256(id)));
    return raw === null ? undefined : (JSON.parse(raw) as ConsoleSession);
  }

  /** Ends the request's session (sign-out). */
  async destroy(req: IncomingMessage): Promise<void> {
    const id = cookieOf(req, SESSION_COOKIE);
    if (id !== undefined) await this.#redis.del(this.#keys.consoleSession(sha256(id)));
  }

  /** A fresh value for the sign-in form's CSRF cookie and field. */
  preSignInToken(): string {
    return randomId();
  }

  /** `Set-Cookie` for the session cookie (`undefined`: clear it). */
  sessionCookie(req: IncomingMessage, id: string | undefined): string {
    const maxAge = id === undefined ? 0 : Math.floor(this.#config.sessionTtlMs / 1000);
    return this.#cookie(req, SESSION_COOKIE, id ?? '', maxAge);
  }

  /** `Set-Cookie` for the sign-in form's CSRF cookie (ten minutes to fill the form). */
  preSignInCookie(req: IncomingMessage, value: string | undefined): string {
    return this.#cookie(req, PRE_SIGN_IN_COOKIE, value ?? '', value === undefined ? 0 : 600);
  }

  #cookie(req: IncomingMessage, name: string, value: string, maxAge: number): string {
    const attributes = [`${name}=${value}`, `Path=${COOKIE_PATH}`, `Max-Age=${maxAge}`, 'HttpOnly', 'SameSite=Strict'];
    if (this.#secure(req)) attributes.push('Secure');
    return attributes.join('; ');
  }

  #secure(req: IncomingMessage): boolean {
    if (this.#config.secureCookies !== 'auto') return this.#config.secureCookies === 'always';
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    return !LOOPBACK_HOSTS.has(host);
  }
}
