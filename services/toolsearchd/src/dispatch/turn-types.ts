import type { BridgeSession, RoutingBudget } from '@toolsearch/bridge';
import type { RoutingRule, SessionTool } from '@toolsearch/catalog';
import type { CallEnvelope, SessionRole } from '@toolsearch/proto';
import type { TenantPolicy } from '../policy-config';

/*
 * The shapes a turn is dispatched with: what embedders' hooks see and may answer, and the context
 * every call of a turn runs against (built by turn-contexts.ts, used by the Dispatcher).
 */

/** What a hook sees of a call: the real tool, never `tool_call`. */
export interface HookCall {
  readonly tenant: string;
  readonly session: string;
  /** The session's role, when the caller knows it (for external hooks). */
  readonly role?: SessionRole;
  readonly callId: string;
  readonly tool: SessionTool;
  readonly arguments: Readonly<Record<string, unknown>>;
}

/** A pre-call hook may block the call (with a message for the model) or rewrite its arguments. */
export type PreCallVerdict = { readonly block: string } | { readonly arguments: Record<string, unknown> } | undefined;

/**
 * In-process hooks for embedders (audit sinks, argument redaction, result shaping). Hooks run in
 * registration order; a hook that throws blocks its call (fail closed) without touching others.
 */
export interface DispatchHooks {
  before?(call: HookCall): PreCallVerdict | Promise<PreCallVerdict>;
  after?(call: HookCall, result: CallEnvelope): CallEnvelope | undefined | Promise<CallEnvelope | undefined>;
}

/** Everything a turn runs against: the session's surface, its policy and its identity. */
export interface TurnContext {
  readonly tenant: string;
  readonly session: string;
  readonly role?: SessionRole;
  readonly bridge: BridgeSession;
  readonly routing: readonly RoutingRule[];
  readonly policy: TenantPolicy;
  /** The tenant's allowance of routing-pattern tests for `tool_search` steps. */
  readonly routingBudget?: RoutingBudget;
}
