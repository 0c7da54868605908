import { z } from 'zod';
import type { MsgHdrs } from 'nats';
import { TenantIdSchema } from '@toolsearch/proto';
import { tokenDigest } from '../session-store.adapter';

/**
 * What a credential may do:
 * - `gateway`: open sessions and act on the sessions it opened, register toolsets and attach MCP
 *   servers for its tenants, list its own sessions and the tenant's toolsets;
 * - `approver`: list, read and decide held calls;
 * - `operator`: the read-only views (every session, toolsets, audit, held calls) and the toolset
 *   and MCP changes a gateway may make. An operator never decides unless it is also an approver.
 */
export const CREDENTIAL_ROLES = ['gateway', 'approver', 'operator'] as const;
export type CredentialRole = (typeof CREDENTIAL_ROLES)[number];

/**
 * One credential key, configured under `credentials:` by its sha256 only (`printf %s "$KEY" |
 * sha256sum`, or `npx toolsearch credentials key`). Its `name` is the identity the daemon records:
 * the owner of the sessions it opens, the "decided by" of an approval.
 */
export const CredentialSchema = z
  .object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/, '1–100 of letters, digits, ".", "_", "@" and "-"'),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'the sha256 of the key, 64 lowercase hex digits'),
    /** The tenants this credential acts for; `'*'` is every tenant (for a deployment's own operators). */
    tenants: z.array(z.union([TenantIdSchema, z.literal('*')])).min(1),
    roles: z.array(z.enum(CREDENTIAL_ROLES)).min(1),
    /**
     * A gateway credential that may also act on sessions that other credentials of the same tenant
     * opened (off by default: each gateway sees only its own sessions).
     */
    shareSessions: z.boolean().default(false),
  })
  .strict();
export type Credential = z.infer<typeof CredentialSchema>;

export const CredentialsSchema = z
  .array(CredentialSchema)
  .max(10_000)
  .default([])
  .superRefine((credentials, context) => {
    const names = new Set<string>();
    const digests = new Set<string>();
    credentials.forEach((credential, index) => {
      if (names.has(credential.name))
        context.addIssue({ code: 'custom', path: [index, 'name'], message: `'${credential.name}' is named twice` });
      if (digests.has(credential.sha256))
        context.addIssue({ code: 'custom', path: [index, 'sha256'], message: 'this key is configured twice' });
      names.add(credential.name);
      digests.add(credential.sha256);
    });
  });

/** Who sent a request, as the daemon verified it. */
export type Caller =
  | {
      readonly kind: 'key';
      readonly name: string;
      readonly roles: ReadonlySet<CredentialRole>;
      readonly shareSessions: boolean;
    }
  | {
      /** A session token (`tst_…`): it acts on that session and on the sessions it spawned. */
      readonly kind: 'session';
      readonly token: string;
      readonly digest: string;
    };

/** The header every request carries its credential in: `Authorization: Bearer <key or session token>`. */
export const CREDENTIAL_HEADER = 'Authorization';

const BEARER = /^Bearer ([A-Za-z0-9._~+/=-]{1,512})$/;

/** The bearer secret of a request, or undefined when it has none (or a malformed one). */
export function bearerOf(headers: MsgHdrs | undefined): string | undefined {
  const value = headers?.get(CREDENTIAL_HEADER);
  if (value === undefined || value === '') return undefined;
  return BEARER.exec(value)?.[1];
}

/** The configured credential keys, looked up by the digest of a presented key. */
export class CredentialBook {
  readonly #byDigest = new Map<string, Credential>();

  constructor(credentials: readonly Credential[]) {
    for (const credential of credentials) this.#byDigest.set(credential.sha256, credential);
  }

  /**
   * The caller a bearer secret proves for `tenant`: a session token (checked against the session
   * later, where the session is known), or a configured key that acts for this tenant.
   */
  identify(tenant: string, bearer: string): Caller | undefined {
    const digest = tokenDigest(bearer);
    if (bearer.startsWith('tst_')) return { kind: 'session', token: bearer, digest };
    return this.identifyDigest(tenant, digest);
  }

  /**
   * The key configured with this sha256, when it acts for `tenant` (the web console keeps only
   * the digest of the key an approver signed in with, and asks again on every request: a key
   * removed from the config ends its console sessions at the next restart).
   */
  identifyDigest(tenant: string, digest: string): Extract<Caller, { kind: 'key' }> | undefined {
    const credential = this.#byDigest.get(digest);
    if (credential === undefined) return undefined;
    if (!credential.tenants.includes('*') && !credential.tenants.includes(tenant)) return undefined;
    return {
      kind: 'key',
      name: credential.name,
      roles: new Set(credential.roles),
      shareSessions: credential.shareSessions,
    };
  }
}
