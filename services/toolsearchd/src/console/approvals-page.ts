import { html, type Html } from './html';
import type { HeldCallView } from './held-call-view';
import { timeOf } from './layout';

/** Words for each state of a held call. */
const STATE_TEXT: Record<HeldCallView['state'], string> = {
  pending: 'waiting for a decision',
  approved: 'approved; running',
  denied: 'denied',
  expired: 'expired: nobody decided in time',
  done: 'approved and run',
};

/** What a decision's outcome query parameter may say after a post (anything else is ignored). */
export const DECISION_OUTCOMES = {
  decided: 'Your decision is recorded.',
  taken: 'Someone decided this call before you; their decision stands (below).',
  expired: 'This call expired before your decision: it did not run and can no longer be approved.',
} as const;
export type DecisionOutcome = keyof typeof DECISION_OUTCOMES;

function facts(call: HeldCallView): Html {
  const info = call.sessionInfo;
  return html`<dl class="facts">
      <dt>Tool</dt>
      <dd><code>${call.tool}</code></dd>
      <dt>Source</dt>
      <dd>${call.source} (its own name: <code>${call.originalName}</code>)</dd>
      <dt>Risk</dt>
      <dd>
        <span class="risk risk-${call.risk ?? 'none'}">${call.risk ?? 'not declared'}</span>
        ${call.hints.length > 0 ? html` · hints: ${call.hints.join(', ')}` : ''}
      </dd>
      <dt>Why held</dt>
      <dd>${call.why}</dd>
      <dt>Session</dt>
      <dd><code>${call.session}</code>${info === undefined ? ' (closed since)' : ''}</dd>
      <dt>Role</dt>
      <dd>${info?.role ?? 'unknown'}</dd>
      <dt>Parent</dt>
      <dd>${info?.parent === undefined ? 'none (a root session)' : html`<code>${info.parent}</code>`}</dd>
      <dt>Gateway</dt>
      <dd>${info?.gateway ?? 'unknown'}</dd>
      <dt>Waited</dt>
      <dd><span data-since="${call.requestedAt}">since ${timeOf(call.requestedAt)}</span></dd>
      <dt>Expires</dt>
      <dd><span data-until="${call.expiresAt}">${timeOf(call.expiresAt)}</span></dd>
    </dl>
    <h3 class="args-title">Arguments <span class="muted">(keys matching the redaction patterns are hidden)</span></h3>
    <pre class="args" tabindex="0">${call.arguments}</pre>`;
}

function decisionForm(call: HeldCallView, csrf: string): Html {
  const reasonId = `reason-${call.id}`;
  return html`<form
    method="post"
    action="/console/approvals/${call.id}/decide"
    class="decide"
    data-expires="${call.expiresAt}"
  >
    <input type="hidden" name="csrf" value="${csrf}" />
    <input type="hidden" name="tool" value="${call.tool}" />
    <input type="hidden" name="digest" value="${call.digest}" />
    <label for="${reasonId}">Reason (recorded with your decision)</label>
    <input id="${reasonId}" name="reason" maxlength="2000" autocomplete="off" />
    <div class="buttons">
      <button type="submit" name="decision" value="approve" class="approve">Approve</button>
      <button type="submit" name="decision" value="deny" class="deny">Deny</button>
    </div>
  </form>`;
}

/** One held call as a card: its facts, and the decision form while it waits. */
export function heldCallCard(call: HeldCallView, csrf: string | undefined): Html {
  return html`<article class="held" id="held-${call.id}" data-id="${call.id}" aria-labelledby="title-${call.id}">
    <h2 id="title-${call.id}"><a href="/console/approvals/${call.id}">${call.tool}</a></h2>
    ${facts(call)} ${call.state === 'pending' && csrf !== undefined ? decisionForm(call, csrf) : ''}
  </article>`;
}

/** The list of waiting calls (also the fragment the live stream reloads). */
export function heldCallList(calls: readonly HeldCallView[], csrf: string | undefined): Html {
  if (calls.length === 0) return html`<p class="empty">No call is waiting for a decision.</p>`;
  return html`<p class="count">${calls.length} call(s) waiting.</p>
    ${calls.map((call) => heldCallCard(call, csrf))}`;
}

/** One held call with its decision and outcome (the page a decision leads to). */
export function heldCallDetail(call: HeldCallView, csrf: string | undefined): Html {
  const { decision, result } = call;
  return html`<section class="held-detail" aria-labelledby="title-${call.id}">
    <p class="state state-${call.state}" data-state="${call.state}">State: ${STATE_TEXT[call.state]}</p>
    ${decision === undefined
      ? ''
      : html`<p class="decision">
          ${decision.decision === 'expire'
            ? html`Expired at ${timeOf(decision.at)}.`
            : html`${decision.decision === 'approve' ? 'Approved' : 'Denied'} by <strong>${decision.by}</strong> at
                ${timeOf(decision.at)}${decision.reason !== '' ? html` — “${decision.reason}”` : ''}.`}
        </p>`}
    ${result === undefined
      ? call.state === 'approved'
        ? html`<p class="running">The call is running; its result appears here when it finishes.</p>`
        : ''
      : html`<h3>Result</h3>
          <pre class="result ${result.ok ? 'ok' : 'failed'}" tabindex="0">${result.text}</pre>`}
    ${heldCallCard(call, csrf)}
  </section>`;
}
