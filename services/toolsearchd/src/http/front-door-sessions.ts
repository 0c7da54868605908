import { randomUUID } from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Approval, CallEnvelope, DispatchResult, OpenSessionRequest } from '@toolsearch/proto';
import type { Assembly, McpTool } from '@toolsearch/disclosure';
import type { DaemonConfig } from '../config';
import type { TurnCall } from '@toolsearch/bridge';
import { tokenDigest, type SessionDescriptor } from '../session-store.adapter';
import { followHeld, heldApprovalId, type HeldCallFollow } from './held-calls';
import type { FrontDoorBackend, FrontDoorIdentity, FrontDoorPrincipal } from './front-door-types';

type ApiKey = DaemonConfig['tenants'][string]['apiKeys'][number];

/**
 * How an MCP connection maps onto toolsearch sessions. A session token (`tst_…`, from
 * `sessions.open`) acts as that session. A tenant API key (configured by digest under
 * `tenants.<id>.apiKeys`) opens a gateway session with the key's grant for the connection, closed
 * when the connection ends.
 */
export class FrontDoorSessions implements FrontDoorBackend {
  readonly #keys = new Map<string, { tenant: string; key: ApiKey }>();

  constructor(
    private readonly deps: {
      apiKeys: DaemonConfig['tenants'];
      resolveToken: (token: string) => Promise<{ tenant: string; session: string } | undefined>;
      /** Opens a gateway session owned by the named API key. */
      open: (tenant: string, request: OpenSessionRequest, keyName: string) => Promise<string>;
      close: (tenant: string, session: string) => Promise<void>;
      descriptor: (tenant: string, session: string) => Promise<SessionDescriptor>;
      /** The session's assembly in MCP form (see SurfaceEndpoints.assembly). */
      assembly: (tenant: string, session: string) => Promise<Assembly>;
      /** Runs one turn of the session (through its actor, after its earlier turns). */
      dispatch: (tenant: string, session: string, calls: readonly TurnCall[]) => Promise<DispatchResult[]>;
      /** A held call of the tenant, as it stands (for MCP clients that wait for theirs). */
      approval: (tenant: string, id: string) => Promise<Approval | undefined>;
      /** How long an MCP request waits for its held call's outcome (`http.heldCallWaitMs`). */
      heldCallWaitMs: number;
    },
  ) {
    for (const [tenant, settings] of Object.entries(deps.apiKeys))
      for (const key of settings.apiKeys) this.#keys.set(key.sha256, { tenant, key });
  }

  async identify(bearer: string): Promise<FrontDoorPrincipal | undefined> {
    if (bearer.startsWith('tst_')) {
      const owner = await this.deps.resolveToken(bearer);
      if (owner === undefined) return undefined;
      try {
        await this.deps.descriptor(owner.tenant, owner.session);
      } catch {
        return undefined;
      }
      return { kind: 'session', ...owner };
    }
    const digest = tokenDigest(bearer);
    const match = this.#keys.get(digest);
    return match === undefined ? undefined : { kind: 'apiKey', tenant: match.tenant, digest };
  }

  async attach(principal: FrontDoorPrincipal): Promise<FrontDoorIdentity> {
    if (principal.kind === 'session') return { tenant: principal.tenant, session: principal.session, owned: false };
    const match = this.#keys.get(principal.digest);
    if (match === undefined) throw new Error('attach: the API key is not configured');
    const { tenant, key } = match;
    const session = await this.deps.open(
      tenant,
      {
        role: 'gateway',
        grant: key.grant,
        model: key.model,
        ...(key.config !== undefined ? { config: key.config } : {}),
      },
      key.name,
    );
    return { tenant, session, owned: true };
  }

  async listTools(identity: FrontDoorIdentity): Promise<Tool[]> {
    const { result, table } = await this.deps.assembly(identity.tenant, identity.session);
    // Core tools belong to the gateway that declared them and run in its process: an MCP client
    // sees only what the daemon can run (MCP and plugin tools) plus the bridge.
    return (result.tools as McpTool[])
      .filter((tool) => table.byName.get(tool.name)?.kind !== 'core')
      .map((tool) => tool as unknown as Tool);
  }

  async callTool(
    identity: FrontDoorIdentity,
    name: string,
    args: unknown,
    follow?: HeldCallFollow,
  ): Promise<CallEnvelope> {
    const [result] = await this.deps.dispatch(identity.tenant, identity.session, [
      { id: `mcp-${randomUUID()}`, name, arguments: args },
    ]);
    if (result === undefined) throw new Error('the dispatcher returned no result');
    const { id: _id, name: _name, ...envelope } = result;
    // An MCP client has no other way to learn what became of a held call: the request waits.
    const held = heldApprovalId(envelope);
    if (held === undefined || follow === undefined || this.deps.heldCallWaitMs === 0) return envelope;
    const outcome = await followHeld(() => this.deps.approval(identity.tenant, held), this.deps.heldCallWaitMs, follow);
    return outcome ?? envelope;
  }

  release(identity: FrontDoorIdentity): Promise<void> {
    return this.deps.close(identity.tenant, identity.session);
  }
}
