import { errorPayload, handleToolDescribe, handleToolSearch } from '@toolsearch/bridge';
import { AssembleRequestSchema, DescribeRequestSchema, errorReply, SearchRequestSchema } from '@toolsearch/proto';
import type { ToolsetRegistry } from './registry.adapter';
import { parse } from './serve-request';
import type { SessionDescriptor, SessionStore } from './session-store.adapter';
import type { SurfaceBuilder } from './surface';

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
      /** The tier a session was just assembled at (for the tier metric). */
      noteTier: (tenant: string, session: string, tier: number) => void;
      /** Seconds spent ranking one search (for the search latency metric). */
      observeSearch: (seconds: number) => void;
    },
  ) {}

  async assemble(tenant: string, session: string | undefined, body: unknown) {
    const { format } = parse(AssembleRequestSchema, body);
    const descriptor = await this.deps.descriptor(tenant, session);
    const { result } = this.deps.surfaces.build(descriptor, this.deps.registry, format).assembly;
    // Budget-gated mode: once the bridge was active it stays active for the session.
    if (result.mode === 'budget' && result.activated && !descriptor.activated)
      await this.deps.store.markActivated(tenant, descriptor.id);
    this.deps.noteTier(tenant, descriptor.id, result.tier);
    return {
      ok: true,
      tier: result.tier,
      listing_form: result.listing_form,
      activated: result.activated,
      mode: result.mode,
      format: result.format,
      tools: result.tools,
      visible_count: result.visible_count,
      deferred_count: result.deferred_count,
      deferred_tokens: result.deferred_tokens,
      listing_tokens: result.listing_tokens,
      budget_tokens: result.budget_tokens,
      tools_tokens: result.tools_tokens,
      hash: result.hash,
    };
  }

  async search(tenant: string, session: string | undefined, body: unknown) {
    const request = parse(SearchRequestSchema, body);
    const { bridge } = this.deps.surfaces.build(await this.deps.descriptor(tenant, session), this.deps.registry);
    const { explain, ...args } = request;
    const started = performance.now();
    const outcome = handleToolSearch(bridge, args, { explain: explain === true });
    this.deps.observeSearch((performance.now() - started) / 1000);
    if (!outcome.ok) return bridgeError(outcome.error);
    return outcome.explain !== undefined
      ? { ok: true, result: outcome.result, explain: outcome.explain }
      : { ok: true, result: outcome.result };
  }

  async describe(tenant: string, session: string | undefined, body: unknown) {
    const request = parse(DescribeRequestSchema, body);
    const { bridge } = this.deps.surfaces.build(await this.deps.descriptor(tenant, session), this.deps.registry);
    const outcome = handleToolDescribe(bridge, request);
    return outcome.ok ? { ok: true, result: outcome.result } : bridgeError(outcome.error);
  }
}

/** A bridge error as a wire error reply: the bridge's own code and message, details kept. */
function bridgeError(error: Parameters<typeof errorPayload>[0]) {
  const { error: message, code, ...details } = errorPayload(error);
  return errorReply(String(code), String(message), Object.keys(details).length > 0 ? details : undefined);
}
