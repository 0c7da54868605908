import { JSONCodec, type NatsConnection } from 'nats';
import { argumentsDigest } from '@toolsearch/bridge';
import { HOOKS, PreHookReplySchema, subject, type PostHookRequest, type PreHookRequest } from '@toolsearch/proto';
import type { CallEnvelope } from '@toolsearch/proto';
import type { HookSettings, TenantPolicy } from '../policy-config';
import type { AuditLog } from './audit.adapter';
import type { DispatchHooks, HookCall, PreCallVerdict } from './turn-types';

const codec = JSONCodec<unknown>();

/**
 * The operator's external hooks: per tenant (`policy.hooks`), the daemon asks the tenant's gateway
 * on `<tenant>.hooks.pre` before each tool call (allow, deny with a reason, or rewrite the
 * arguments — a rewrite is checked against the schema again and meets the approval gate like the
 * model's own) and tells it on `<tenant>.hooks.post` after. A gateway in any language can serve
 * them. No answer within the hook's timeout follows its `onError`. Every hook decision is a record
 * in the tenant's audit trail (outcome `hook.pre:<decision>` or `hook.post:<answered|no answer>`).
 */
export class NatsHooks implements DispatchHooks {
  constructor(
    private readonly deps: {
      nc: NatsConnection;
      audit: AuditLog;
      policyOf: (tenant: string) => TenantPolicy;
    },
  ) {}

  async before(call: HookCall): Promise<PreCallVerdict> {
    const settings = this.deps.policyOf(call.tenant).hooks.pre;
    if (settings === undefined) return undefined;
    const started = performance.now();
    let verdict: PreCallVerdict;
    let outcome: string;
    try {
      const reply = await this.#ask(HOOKS.pre.template, this.#request(call, settings), settings);
      const parsed = PreHookReplySchema.safeParse(reply);
      if (!parsed.success) throw new Error('its reply is not { decision: allow | deny, reason?, arguments? }');
      if (parsed.data.decision === 'deny') {
        verdict = { block: `refused by the pre-call hook: ${parsed.data.reason ?? 'no reason given'}` };
        outcome = 'deny';
      } else if (parsed.data.arguments !== undefined) {
        verdict = { arguments: parsed.data.arguments };
        outcome = 'rewrite';
      } else {
        verdict = undefined;
        outcome = 'allow';
      }
    } catch (error) {
      const why = (error as Error).message;
      verdict =
        settings.onError === 'deny'
          ? { block: `the pre-call hook did not answer (${why}); the call is refused.` }
          : undefined;
      outcome = `error:${settings.onError}`;
    }
    await this.#audit(call, `hook.pre:${outcome}`, performance.now() - started);
    return verdict;
  }

  async after(call: HookCall, result: CallEnvelope): Promise<undefined> {
    const settings = this.deps.policyOf(call.tenant).hooks.post;
    if (settings === undefined) return undefined;
    const started = performance.now();
    const request: PostHookRequest = {
      ...this.#request(call, settings),
      ok: result.ok,
      ...(result.error?.code !== undefined ? { error_code: result.error.code } : {}),
    };
    let outcome = 'answered';
    try {
      await this.#ask(HOOKS.post.template, request, settings);
    } catch {
      outcome = 'no answer';
    }
    await this.#audit(call, `hook.post:${outcome}`, performance.now() - started);
    return undefined;
  }

  #request(call: HookCall, settings: HookSettings): PreHookRequest {
    return {
      tenant: call.tenant,
      session: call.session,
      ...(call.role !== undefined ? { role: call.role } : {}),
      call_id: call.callId,
      tool: call.tool.name,
      original_name: call.tool.originalName,
      toolset: call.tool.toolset,
      digest: argumentsDigest(call.arguments),
      ...(settings.arguments ? { arguments: { ...call.arguments } } : {}),
    };
  }

  async #ask(template: string, request: unknown, settings: HookSettings): Promise<unknown> {
    const tenant = (request as { tenant: string }).tenant;
    const reply = await this.deps.nc.request(subject(template, { tenant }), codec.encode(request), {
      timeout: settings.timeoutMs,
    });
    return codec.decode(reply.data);
  }

  async #audit(call: HookCall, outcome: string, durationMs: number): Promise<void> {
    await this.deps.audit
      .append([
        {
          tenant: call.tenant,
          session: call.session,
          callId: call.callId,
          tool: call.tool.name,
          toolset: call.tool.toolset,
          digest: argumentsDigest(call.arguments),
          durationMs,
          retries: 0,
          outcome,
          approvalId: '',
          at: Date.now(),
        },
      ])
      // The audit is evidence, not a gate: a Redis hiccup here must not change the call's fate.
      .catch(() => undefined);
  }
}
