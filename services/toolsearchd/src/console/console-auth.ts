import type { IncomingMessage } from 'node:http';
import { TenantIdSchema } from '@toolsearch/proto';
import { tokenDigest } from '../session-store.adapter';
import type { CredentialBook, CredentialRole } from '../identity/credentials';
import { ConsoleError } from './console-errors';
import { PRE_SIGN_IN_COOKIE, cookieOf, sameSecret, type ConsoleSessions, type SignedIn } from './console-sessions';
import { field } from './form-body';
import { SignInLimiter } from './sign-in-limiter';

/** Roles that may sign in to the console: approvers decide, operators read. Gateways never. */
const CONSOLE_ROLES: readonly CredentialRole[] = ['approver', 'operator'];
/** The characters of a credential key (as in an `Authorization: Bearer` header), at most 512. */
const KEY_TEXT = /^[A-Za-z0-9._~+/=-]{1,512}$/;

/**
 * Who may use the console and how they prove it. Sign-in takes a tenant and a credential key and
 * checks the key exactly as the daemon checks a NATS request's (`CredentialBook`): a session token
 * or a gateway key is refused, whatever else it may do. Every later request is checked again
 * against the config by the key's digest, so roles follow the config, not the sign-in.
 */
export class ConsoleAuth {
  readonly #limiter = new SignInLimiter();

  constructor(private readonly deps: { credentials: CredentialBook; sessions: ConsoleSessions }) {}

  /** Checks a sign-in form (its CSRF pair included); returns the new session's cookie value. */
  async signIn(req: IncomingMessage, form: URLSearchParams): Promise<string> {
    const pre = cookieOf(req, PRE_SIGN_IN_COOKIE);
    if (pre === undefined || !sameSecret(pre, field(form, 'csrf', 200)))
      throw new ConsoleError(
        'CSRF_MISMATCH',
        'the sign-in form has expired or did not come from this console; load it again.',
      );
    const tenant = TenantIdSchema.safeParse(field(form, 'tenant', 63));
    if (!tenant.success) throw new ConsoleError('BAD_REQUEST', 'a tenant id is 1–63 of a-z, 0-9 and -.');
    const who = `${req.socket.remoteAddress ?? ''}/${tenant.data}`;
    this.#limiter.check(who);
    try {
      return await this.#signIn(tenant.data, field(form, 'key', 512));
    } catch (error) {
      if (error instanceof ConsoleError) this.#limiter.fail(who);
      throw error;
    }
  }

  async #signIn(tenant: string, key: string): Promise<string> {
    if (!KEY_TEXT.test(key)) throw new ConsoleError('UNAUTHENTICATED', 'this is not a credential key of this tenant.');
    if (key.startsWith('tst_'))
      throw new ConsoleError(
        'FORBIDDEN',
        'a session token cannot sign in to the console: sign in with an approver or operator key.',
      );
    const digest = tokenDigest(key);
    const caller = this.deps.credentials.identifyDigest(tenant, digest);
    if (caller === undefined) throw new ConsoleError('UNAUTHENTICATED', 'this is not a credential key of this tenant.');
    if (!CONSOLE_ROLES.some((role) => caller.roles.has(role)))
      throw new ConsoleError(
        'FORBIDDEN',
        `key '${caller.name}' has neither the approver nor the operator role; gateway keys cannot sign in to the console.`,
      );
    return this.deps.sessions.create({ tenant, name: caller.name, keyDigest: digest });
  }

  /** The signed-in session of a request, with its key's roles now; undefined when there is none. */
  async signedIn(req: IncomingMessage): Promise<SignedIn | undefined> {
    const session = await this.deps.sessions.load(req);
    if (session === undefined) return undefined;
    const caller = this.deps.credentials.identifyDigest(session.tenant, session.keyDigest);
    // A key removed from the config (or no longer acting for the tenant) has no console session.
    if (caller === undefined || caller.name !== session.name) return undefined;
    const roles = new Set([...caller.roles].filter((role) => CONSOLE_ROLES.includes(role)));
    return roles.size === 0 ? undefined : { ...session, roles };
  }

  /** FORBIDDEN unless the signed-in key has `role`. */
  requireRole(session: SignedIn, role: CredentialRole, what: string): void {
    if (!session.roles.has(role))
      throw new ConsoleError(
        'FORBIDDEN',
        `${what} needs a key with the ${role} role; '${session.name}' does not have it.`,
      );
  }

  /** CSRF_MISMATCH unless the form carries this session's token. */
  requireCsrf(session: SignedIn, form: URLSearchParams): void {
    const sent = form.getAll('csrf');
    if (sent.length !== 1 || !sameSecret(session.csrf, (sent[0] ?? '').slice(0, 200)))
      throw new ConsoleError(
        'CSRF_MISMATCH',
        'this form did not come from your console session (missing or wrong CSRF token); nothing was done.',
      );
  }
}
