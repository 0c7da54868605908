import { createHash, randomBytes } from 'node:crypto';

/** Roles a daemon credential key may carry (the daemon's `credentials[].roles`). */
export const KEY_ROLES = ['gateway', 'approver', 'operator'] as const;
export type KeyRole = (typeof KEY_ROLES)[number];

/** A credential entry as the daemon's config holds it: the key's digest, never the key. */
export interface CredentialEntry {
  readonly name: string;
  readonly sha256: string;
  readonly tenants: readonly string[];
  readonly roles: readonly KeyRole[];
}

export class CredentialKeyError extends Error {}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._@-]{0,99}$/;
const TENANT = /^([a-z0-9][a-z0-9-]{0,62}|\*)$/;

/**
 * A new credential key for the daemon: a random secret (`tsk_…`, shown to its holder once) and
 * the config entry that recognises it by its SHA-256.
 */
export function mintCredentialKey(request: { name: string; tenants: readonly string[]; roles: readonly string[] }): {
  key: string;
  entry: CredentialEntry;
} {
  if (!NAME.test(request.name))
    throw new CredentialKeyError(`'${request.name}' is not a credential name (1–100 of letters, digits, . _ @ -).`);
  if (request.tenants.length === 0) throw new CredentialKeyError('name its tenants: --tenants T1,T2 (or *).');
  const badTenant = request.tenants.find((tenant) => !TENANT.test(tenant));
  if (badTenant !== undefined) throw new CredentialKeyError(`'${badTenant}' is not a tenant id (or *).`);
  if (request.roles.length === 0)
    throw new CredentialKeyError(`name its roles: --roles with any of ${KEY_ROLES.join(', ')}.`);
  const badRole = request.roles.find((role) => !(KEY_ROLES as readonly string[]).includes(role));
  if (badRole !== undefined)
    throw new CredentialKeyError(`'${badRole}' is not a role; the roles are ${KEY_ROLES.join(', ')}.`);
  const key = `tsk_${randomBytes(32).toString('base64url')}`;
  return {
    key,
    entry: {
      name: request.name,
      sha256: createHash('sha256').update(key).digest('hex'),
      tenants: [...request.tenants],
      roles: [...(request.roles as KeyRole[])],
    },
  };
}

/** The entry as YAML lines for the daemon's `credentials:` list. */
export function credentialYaml(entry: CredentialEntry): string {
  return [
    `  - name: ${entry.name}`,
    `    sha256: ${entry.sha256}`,
    `    tenants: [${entry.tenants.map((tenant) => (tenant === '*' ? "'*'" : tenant)).join(', ')}]`,
    `    roles: [${entry.roles.join(', ')}]`,
  ].join('\n');
}
