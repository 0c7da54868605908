import { errorPayload, handleToolDescribe, handleToolSearch, type RoutingBudget } from '@toolsearch/bridge';
import { searchCharged } from './search-cost';
import type { Assembly, AssemblyResult, ToolFormat } from '@toolsearch/disclosure';
import {
  AssembleRequestSchema,
  DescribeRequestSchema,
  errorReply,
  SearchRequestSchema,
  type SurfaceSummary,
} from '@toolsearch/proto';
import type { ActivationLatch } from './activation-latch';
import type { ToolsetRegistry } from './registry.adapter';
import { parse } from './serve-request';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';
import type { UsageLearning } from './usage-learning';

/**
 * What a session's model sees and asks: `sessions.<s>.assemble` (the tool array for the next
 * turn) and the bridge lookups `sessions.<s>.search` / `.describe`, each over the session's
 * current surface.
 */
export class SurfaceEndpoints {
  constructor(
    private readonly deps: {
      registry: ToolsetRegistry;
      store: SessionStore;
      surfaces: SurfaceBuilder;
      descriptor: (tenant: string, session: string | undefined) => Promise<SessionDescriptor>;
      /** Keeps a budget-gated session on once an assembly turned it on. */
      latch: ActivationLatch;
      /** Seconds spent ranking one search (for the search latency metric). */
      observeSearch: (seconds: number) => void;
      /** The tenant's allowance of routing-pattern tests (see routing-budgets.ts). */
      routingBudget: (tenant: string) => RoutingBudget;
      /** Told the tools a session described (for `keep_found`). */
      noteFound: (tenant: string, session: string, names: readonly string[]) => void;
      /** Learning from use: ranks the searches of tenants that opted in and remembers them. */
      usage: Pick<UsageLearning, 'signal' | 'noteSearch'>;
      /** Counts what a search cost beyond its request's weight against the tenant (`search-cost.ts`). */
      charge?: (tenant: string, weight: number) => void;
    },
  ) {}

  /**
   * The session's assembly in `format`, as the model will get it: in budget-gated mode a bridge
   * that became active stays active for the session, and the tier is noted for the metrics. Used
   * by `sessions.<s>.assemble` and by the MCP endpoint's `tools/list`.
   */
  async assembly(tenant: string, session: string | undefined, format: ToolFormat): Promise<Assembly> {
    const descriptor = await this.deps.descriptor(tenant, session);
    const assembly = this.deps.surfaces.forRequest(descriptor, this.deps.registry, format).assembly;
    const { result } = assembly;
    // The session's actor learns the tier and decides the `auto:N` latch.
    await this.deps.latch.note(descriptor, result);
    return assembly;
  }

  async assemble(tenant: string, session: string | undefined, body: unknown) {
    const { format } = parse(AssembleRequestSchema, body);
    const { result } = await this.assembly(tenant, session, format);
    // The formatted tools are plain JSON objects (interfaces in TypeScript, records on the wire).
    const tools = result.tools as unknown as Record<string, unknown>[];
    return { ok: true as const, ...surfaceSummary(result), format: result.format, tools };
  }

  async search(tenant: string, session: string | undefined, body: unknown) {
    const request = parse(SearchRequestSchema, body);
    const descriptor = await this.deps.descriptor(tenant, session);
    const { bridge } = this.deps.surfaces.forRequest(descriptor, this.deps.registry);
    const { explain, ...args } = request;
    const started = performance.now();
    const charge = this.deps.charge;
    const outcome = searchCharged(
      bridge.engine,
      charge === undefined ? undefined : (weight) => charge(tenant, weight),
      () =>
        handleToolSearch(bridge, args, {
          explain: explain === true,
          routingBudget: this.deps.routingBudget(tenant),
          usage: this.deps.usage.signal(tenant),
        }),
    );
    this.deps.observeSearch((performance.now() - started) / 1000);
    if (!outcome.ok) return bridgeError(outcome.error);
    // An explained search is someone looking at the ranking (the console), not the session asking.
    if (explain !== true) this.deps.usage.noteSearch(tenant, descriptor.id, outcome.result);
    return outcome.explain !== undefined
      ? { ok: true as const, result: { ...outcome.result }, explain: outcome.explain.map((entry) => ({ ...entry })) }
      : { ok: true as const, result: { ...outcome.result } };
  }

  async describe(tenant: string, session: string | undefined, body: unknown) {
    const request = parse(DescribeRequestSchema, body);
    const descriptor = await this.deps.descriptor(tenant, session);
    const { bridge } = this.deps.surfaces.forRequest(descriptor, this.deps.registry);
    const outcome = handleToolDescribe(bridge, request);
    if (!outcome.ok) return bridgeError(outcome.error);
    this.deps.noteFound(tenant, descriptor.id, Object.keys(outcome.result.tools));
    return { ok: true as const, result: { ...outcome.result } };
  }
}

/** The numbers of an assembly that describe the surface (everything but the tool array). */
export function surfaceSummary(result: AssemblyResult): SurfaceSummary {
  return {
    tier: result.tier,
    listing_form: result.listing_form,
    activated: result.activated,
    mode: result.mode,
    visible_count: result.visible_count,
    deferred_count: result.deferred_count,
    kept: [...result.kept],
    deferred_tokens: result.deferred_tokens,
    listing_tokens: result.listing_tokens,
    budget_tokens: result.budget_tokens,
    tools_tokens: result.tools_tokens,
    hash: result.hash,
  };
}

/** A bridge error as a wire error reply: the bridge's own code and message, details kept. */
function bridgeError(error: Parameters<typeof errorPayload>[0]) {
  const { error: message, code, ...details } = errorPayload(error);
  return errorReply(String(code), String(message), Object.keys(details).length > 0 ? details : undefined);
}
