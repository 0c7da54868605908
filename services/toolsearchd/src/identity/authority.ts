import { timingSafeEqual } from 'node:crypto';
import { ENDPOINTS, WIRE_ERROR_CODES, type EndpointName, type SubjectParams } from '@toolsearch/proto';
import { RequestError, type Handler, type RequestEnvelope } from '../serve-request';
import type { SessionDescriptor } from '../session-store.adapter';
import { CREDENTIAL_HEADER, type Caller, type CredentialBook, type CredentialRole } from './credentials';

/**
 * What an endpoint asks of its caller:
 * - `roles`: a credential key with one of these roles;
 * - `session`: proof of holding the session named in the subject;
 * - `session-or-roles`: that, or a key with one of the roles (operators reading a session);
 * - `open`: with a `parent`, proof of holding the parent; without one, a gateway key;
 * - `parent`: proof of holding the `parent` named in the payload (`subagents.spawn`).
 */
type Rule =
  | { readonly kind: 'roles'; readonly roles: readonly CredentialRole[] }
  | { readonly kind: 'session' }
  | { readonly kind: 'session-or-roles'; readonly roles: readonly CredentialRole[] }
  | { readonly kind: 'open' }
  | { readonly kind: 'parent' };

const roles = (...allowed: CredentialRole[]): Rule => ({ kind: 'roles', roles: allowed });
const SESSION: Rule = { kind: 'session' };

/** Every endpoint's rule; an endpoint without one does not compile. */
export const ENDPOINT_RULES: Record<EndpointName, Rule> = {
  sessionsOpen: { kind: 'open' },
  sessionsAssemble: SESSION,
  sessionsSearch: SESSION,
  sessionsDescribe: SESSION,
  sessionsDispatch: SESSION,
  sessionsClose: SESSION,
  subagentsSpawn: { kind: 'parent' },
  toolsetsPut: roles('gateway', 'operator'),
  toolsetsDelete: roles('gateway', 'operator'),
  mcpAttach: roles('gateway', 'operator'),
  mcpDetach: roles('gateway', 'operator'),
  approvalsList: roles('approver', 'operator'),
  approvalsGet: roles('approver', 'operator'),
  approvalsDecide: roles('approver'),
  sessionsList: roles('gateway', 'operator'),
  sessionsShow: { kind: 'session-or-roles', roles: ['operator'] },
  toolsetsList: roles('gateway', 'operator'),
  auditRecent: roles('operator'),
  tenantShow: roles('operator'),
  toolsetsDiff: roles('operator'),
  toolsetsAccept: roles('operator'),
};

/** A handler that runs once its caller has passed the endpoint's rule, and learns who it is. */
export type GuardedHandler = (
  params: SubjectParams & { tenant: string },
  payload: unknown,
  caller: Caller,
  request?: RequestEnvelope,
) => Promise<unknown>;

const unauthenticated = (what: string) =>
  new RequestError(
    WIRE_ERROR_CODES.UNAUTHENTICATED,
    `${what}: send a credential in the '${CREDENTIAL_HEADER}: Bearer …' header (a credential key configured for this tenant, or the session token that sessions.open returned).`,
  );

function sameDigest(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/**
 * Decides who may act as whom. Identity comes only from the request's credential — a configured
 * key (found by its digest) or a session token — never from a field of the payload. The
 * tenant of the subject must be one the key acts for; a session token acts on its own session
 * and on the sessions it spawned; a gateway key acts on the sessions it opened.
 */
export class Authority {
  constructor(
    private readonly deps: {
      book: CredentialBook;
      /** A session of the tenant (SESSION_NOT_FOUND when there is none). */
      descriptor: (tenant: string, session: string | undefined) => Promise<SessionDescriptor>;
      /** The session a token belongs to (for a token acting on a descendant). */
      resolveToken: (token: string) => Promise<{ tenant: string; session: string } | undefined>;
    },
  ) {}

  /** The verified caller of a request to `tenant`, or UNAUTHENTICATED. */
  caller(tenant: string, bearer: string | undefined): Caller {
    if (bearer === undefined) throw unauthenticated('this request carries no credential');
    const caller = this.deps.book.identify(tenant, bearer);
    if (caller === undefined) throw unauthenticated(`the credential is not one of tenant '${tenant}'`);
    return caller;
  }

  /** Throws FORBIDDEN unless the caller is a key with one of `allowed`. */
  requireRole(caller: Caller, allowed: readonly CredentialRole[], what: string): void {
    if (caller.kind === 'key' && allowed.some((role) => caller.roles.has(role))) return;
    const who = caller.kind === 'key' ? `credential '${caller.name}'` : 'a session token';
    throw new RequestError(
      WIRE_ERROR_CODES.FORBIDDEN,
      `${what} needs a credential with the role ${allowed.map((role) => `'${role}'`).join(' or ')}; ${who} does not have it.`,
    );
  }

  /** Whether the caller holds the session: its token, an ancestor's token, or the key that opened it. */
  async holds(tenant: string, caller: Caller, descriptor: SessionDescriptor): Promise<boolean> {
    if (caller.kind === 'key')
      return (
        caller.roles.has('gateway') &&
        (caller.shareSessions || (descriptor.owner !== undefined && descriptor.owner === caller.name))
      );
    if (descriptor.tokenDigest !== undefined && sameDigest(descriptor.tokenDigest, caller.digest)) return true;
    if (descriptor.tokenDigest !== undefined && descriptor.lineage.length === 0) return false;
    const owner = await this.deps.resolveToken(caller.token);
    if (owner === undefined || owner.tenant !== tenant) return false;
    return owner.session === descriptor.id || descriptor.lineage.includes(owner.session);
  }

  /** The session, once the caller has proved it holds it (FORBIDDEN otherwise). */
  async requireSession(tenant: string, caller: Caller, session: string | undefined): Promise<SessionDescriptor> {
    const descriptor = await this.deps.descriptor(tenant, session);
    if (await this.holds(tenant, caller, descriptor)) return descriptor;
    throw new RequestError(
      WIRE_ERROR_CODES.FORBIDDEN,
      `this credential does not hold session ${descriptor.id}: send its session token, an ancestor's, or the gateway credential that opened it.`,
    );
  }

  /** Applies an endpoint's rule; returns the verified caller. */
  async check(
    name: EndpointName,
    params: SubjectParams & { tenant: string },
    payload: unknown,
    bearer: string | undefined,
  ): Promise<Caller> {
    const caller = this.caller(params.tenant, bearer);
    const rule = ENDPOINT_RULES[name];
    const parent = parentOf(payload);
    switch (rule.kind) {
      case 'roles':
        this.requireRole(caller, rule.roles, ENDPOINTS[name].name);
        break;
      case 'session':
        await this.requireSession(params.tenant, caller, params.session);
        break;
      case 'session-or-roles':
        if (caller.kind === 'key' && rule.roles.some((role) => caller.roles.has(role))) break;
        await this.requireSession(params.tenant, caller, params.session);
        break;
      case 'open':
        if (parent === undefined) this.requireRole(caller, ['gateway'], 'opening a session without a parent');
        else await this.requireSession(params.tenant, caller, parent);
        break;
      case 'parent':
        await this.requireSession(params.tenant, caller, parent);
        break;
    }
    return caller;
  }

  /** Wraps every handler so that it only runs for a caller that passed its endpoint's rule. */
  guard(handlers: Record<EndpointName, GuardedHandler>): Record<EndpointName, Handler> {
    const guarded = {} as Record<EndpointName, Handler>;
    for (const name of Object.keys(handlers) as EndpointName[]) {
      const handler = handlers[name];
      guarded[name] = async (params, payload, request) =>
        handler(params, payload, await this.check(name, params, payload, request.bearer), request);
    }
    return guarded;
  }
}

/** The `parent` a payload names, when it names one as a string. */
function parentOf(payload: unknown): string | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined;
  const parent = (payload as { parent?: unknown }).parent;
  return typeof parent === 'string' ? parent : undefined;
}

/** The owner a new session records: the opening key's name, or (for a child) its parent's owner. */
export function ownerFor(caller: Caller, parent: SessionDescriptor | undefined): string | undefined {
  if (parent !== undefined) return parent.owner;
  return caller.kind === 'key' ? caller.name : undefined;
}
