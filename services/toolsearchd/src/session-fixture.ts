import type { SessionDescriptor } from './session-store.adapter';

/** A stored session descriptor for unit tests: a gateway session of `tenant` granted `toolsets`. */
export function sessionDescriptor(
  id: string,
  options: { tenant?: string; toolsets?: string[] } = {},
): SessionDescriptor {
  return {
    id,
    tenant: options.tenant ?? 'acme',
    role: 'gateway',
    grant: { toolsets: options.toolsets ?? ['a'] },
    model: { contextLength: 0 },
    coreTools: [],
    lineage: [],
    ancestorAllows: [],
    activated: false,
    found: [],
    createdAt: 0,
  };
}
