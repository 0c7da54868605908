import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { CallEnvelope } from '@toolsearch/proto';
import type { HeldCallFollow } from './held-calls';

/** Who an MCP connection acts as. */
export interface FrontDoorIdentity {
  readonly tenant: string;
  readonly session: string;
  /** The session was opened for this connection (tenant API key) and is closed with it. */
  readonly owned: boolean;
}

/** Who a bearer proves to be, found from the bearer alone: nothing is opened yet. */
export type FrontDoorPrincipal =
  | { readonly kind: 'session'; readonly tenant: string; readonly session: string }
  | { readonly kind: 'apiKey'; readonly tenant: string; readonly digest: string };

/** What the front door needs from the daemon; every call is scoped to one tenant's session. */
export interface FrontDoorBackend {
  /** A session token (`tst_…`) or a tenant API key → who it is, or undefined. Opens nothing. */
  identify(bearer: string): Promise<FrontDoorPrincipal | undefined>;
  /** The session a new MCP session acts as: the token's own, or one opened for an API key. */
  attach(principal: FrontDoorPrincipal): Promise<FrontDoorIdentity>;
  /** The session's assembled surface in MCP form (tools the daemon can run, plus the bridge). */
  listTools(identity: FrontDoorIdentity): Promise<Tool[]>;
  /**
   * One call through the dispatcher: policy, approvals, audit. A call held for a person is
   * followed on the open request when `follow` is given (see held-calls.ts).
   */
  callTool(identity: FrontDoorIdentity, name: string, args: unknown, follow?: HeldCallFollow): Promise<CallEnvelope>;
  /** The connection ended: close a session opened for it. */
  release(identity: FrontDoorIdentity): Promise<void>;
}
