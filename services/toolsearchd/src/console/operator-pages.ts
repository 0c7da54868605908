import type { HitExplanation } from '@toolsearch/search';
import type { AuditRecord, ToolsetSummary } from '@toolsearch/proto';
import type { OperatorViews } from '../operator-views';
import type { QuotaReport } from '../quotas';
import { html, type Html } from './html';
import { timeOf } from './layout';

type SessionShow = Awaited<ReturnType<OperatorViews['sessionShow']>>;
/** One row of the sessions page: what `sessions.show` gives, and the gateway that opened it. */
export interface SessionRow extends SessionShow {
  readonly gateway: string | undefined;
}

/**
 * A bar for a part of a whole: a `<meter>`, drawn by the browser without any style attribute (the
 * CSP allows none). The number is always written next to it, so the bar is hidden from screen
 * readers rather than read twice.
 */
function bar(value: number, max: number): Html {
  const safeMax = max > 0 ? max : 1;
  return html`<meter
    min="0"
    max="${safeMax}"
    value="${Math.min(Math.max(value, 0), safeMax)}"
    aria-hidden="true"
  ></meter>`;
}

function sessionLink(id: string): Html {
  return html`<a href="/console/sessions/${id}"><code>${id}</code></a>`;
}

function budgetCell(surface: SessionShow['surface']): Html {
  const label = `${surface.listing_tokens} of ${surface.budget_tokens} tokens`;
  return html`${bar(surface.listing_tokens, surface.budget_tokens)} <span class="num">${label}</span>`;
}

/** Sessions of the tenant, newest first: grant, role, children, tier, listing and its budget. */
export function sessionsTable(rows: readonly SessionRow[], total: number): Html {
  if (rows.length === 0) return html`<p class="empty">No open session.</p>`;
  return html`<p class="count">${rows.length} of ${total} open session(s).</p>
    <div class="table-wrap" tabindex="0">
      <table>
        <caption class="visually-hidden">
          Open sessions
        </caption>
        <thead>
          <tr>
            <th scope="col">Session</th>
            <th scope="col">Role</th>
            <th scope="col">Gateway</th>
            <th scope="col">Grant</th>
            <th scope="col">Children</th>
            <th scope="col">Tier</th>
            <th scope="col">Listing</th>
            <th scope="col">Listing tokens / budget</th>
          </tr>
        </thead>
        <tbody>
          ${rows.map(
            ({ session, surface, gateway }) =>
              html`<tr>
                <td>${sessionLink(session.id)}</td>
                <td>
                  ${session.role}${session.parent !== undefined ? html`<br />of ${sessionLink(session.parent)}` : ''}
                </td>
                <td>${gateway ?? '—'}</td>
                <td>${session.grant.toolsets.join(', ')}</td>
                <td class="num">${session.children.length}</td>
                <td class="num">${surface.tier}</td>
                <td>${surface.listing_form}</td>
                <td>${budgetCell(surface)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>`;
}

/** One session in full: its grant, model, children and surface. */
export function sessionDetail(row: SessionRow): Html {
  const { session, surface } = row;
  return html`<dl class="facts">
    <dt>Role</dt>
    <dd>${session.role}</dd>
    <dt>Parent</dt>
    <dd>${session.parent === undefined ? 'none (a root session)' : sessionLink(session.parent)}</dd>
    <dt>Gateway</dt>
    <dd>${row.gateway ?? '—'}</dd>
    <dt>Grant</dt>
    <dd>
      toolsets
      ${session.grant.toolsets.join(', ')}${session.grant.allow !== undefined
        ? html`; allow ${session.grant.allow.join(', ')}`
        : ''}${session.grant.deny !== undefined ? html`; deny ${session.grant.deny.join(', ')}` : ''}
    </dd>
    <dt>Children</dt>
    <dd>${session.children.length === 0 ? 'none' : session.children.map((child) => html`${sessionLink(child)} `)}</dd>
    <dt>Model context</dt>
    <dd>${session.model.contextLength} tokens</dd>
    <dt>Opened</dt>
    <dd>${timeOf(session.created_at)}</dd>
    <dt>Tier, listing</dt>
    <dd>tier ${surface.tier}, ${surface.listing_form} (mode ${surface.mode}${surface.activated ? ', active' : ''})</dd>
    <dt>Tools</dt>
    <dd>
      ${surface.visible_count} visible, ${surface.deferred_count} behind search (${surface.deferred_tokens} tokens)
    </dd>
    <dt>Listing budget</dt>
    <dd>${budgetCell(surface)}</dd>
    <dt>Tool array</dt>
    <dd>${surface.tools_tokens} tokens</dd>
  </dl>`;
}

/** The "why this tool" form of a session (a GET: it changes nothing). */
export function whyForm(session: string, query: string): Html {
  return html`<form method="get" action="/console/sessions/${session}" class="why">
    <label for="q">Query, as the model would send it to tool_search</label>
    <input id="q" name="q" value="${query}" maxlength="1000" required />
    <button type="submit">Explain the ranking</button>
  </form>`;
}

/** The ranking of one query, each tool with its terms' contributions drawn as bars. */
export function whyResult(query: string, matches: readonly HitExplanation[]): Html {
  if (matches.length === 0) return html`<p class="empty">No tool of this session matches “${query}”.</p>`;
  const widest = Math.max(...matches.flatMap((match) => match.terms.map((term) => term.contribution)), 0.001);
  return html`<ol class="why-hits">
    ${matches.map(
      (match) =>
        html`<li>
          <h3><code>${match.name}</code> <span class="muted">score ${match.score.toFixed(3)}</span></h3>
          <p>${match.why}</p>
          <table class="terms">
            <caption class="visually-hidden">
              Contribution of each query term to ${match.name}
            </caption>
            <thead>
              <tr>
                <th scope="col">Term</th>
                <th scope="col">Contribution</th>
                <th scope="col">Fields</th>
              </tr>
            </thead>
            <tbody>
              ${match.terms.map(
                (term) =>
                  html`<tr>
                    <th scope="row"><code>${term.term}</code></th>
                    <td>
                      ${bar(term.contribution, widest)}
                      <span class="num">${term.contribution.toFixed(3)}</span>
                    </td>
                    <td>
                      ${Object.entries(term.fields)
                        .map(([name, count]) => `${name} ×${count}`)
                        .join(', ')}
                    </td>
                  </tr>`,
              )}
            </tbody>
          </table>
          <p class="muted">
            BM25 ${match.bm25.toFixed(3)} · name reward ×${match.nameReward.toFixed(2)} · source boost
            ${match.sourceBoost.toFixed(3)}${match.rules.length > 0 ? html` · rules: ${match.rules.join(', ')}` : ''}
          </p>
        </li>`,
    )}
  </ol>`;
}

/** The tenant's toolsets with their availability and tool counts. */
export function toolsetsTable(toolsets: readonly ToolsetSummary[]): Html {
  if (toolsets.length === 0) return html`<p class="empty">No toolset.</p>`;
  return html`<div class="table-wrap" tabindex="0">
    <table>
      <caption class="visually-hidden">
        Toolsets
      </caption>
      <thead>
        <tr>
          <th scope="col">Toolset</th>
          <th scope="col">Kind</th>
          <th scope="col">Tools</th>
          <th scope="col">Available</th>
          <th scope="col">Revision</th>
        </tr>
      </thead>
      <tbody>
        ${toolsets.map(
          (toolset) =>
            html`<tr>
              <td><code>${toolset.id}</code>${toolset.label !== undefined ? html` (${toolset.label})` : ''}</td>
              <td>${toolset.kind}</td>
              <td class="num">${toolset.tools}</td>
              <td>${toolset.unavailable === undefined ? 'yes' : html`<strong>no</strong>: ${toolset.unavailable}`}</td>
              <td class="num">${toolset.revision}</td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}

function activityRow(record: AuditRecord): Html {
  return html`<tr>
    <td>${timeOf(record.at)}</td>
    <td>${sessionLink(record.session)}</td>
    <td><code>${record.tool}</code></td>
    <td class="outcome-${record.outcome === 'ok' ? 'ok' : 'other'}">${record.outcome}</td>
    <td class="num">${record.duration_ms.toFixed(1)}</td>
    <td>${record.approval_id !== '' ? html`<code>${record.approval_id}</code>` : ''}</td>
  </tr>`;
}

/** The rows of the activity table (the fragment the live stream reloads). */
export function activityRows(records: readonly AuditRecord[]): Html {
  return html`${records.map(activityRow)}`;
}

/** The newest calls and bridge lookups of the tenant (audit), reloaded live by the page's script. */
export function activityTable(records: readonly AuditRecord[]): Html {
  return html`<p class="muted">
      Calls and bridge lookups (tool_search, tool_describe) as the audit records them, newest first, under the real
      tool's name; the table follows new records live.
    </p>
    <div class="table-wrap" tabindex="0">
      <table>
        <caption class="visually-hidden">
          Activity
        </caption>
        <thead>
          <tr>
            <th scope="col">At</th>
            <th scope="col">Session</th>
            <th scope="col">Tool</th>
            <th scope="col">Outcome</th>
            <th scope="col">ms</th>
            <th scope="col">Approval</th>
          </tr>
        </thead>
        <tbody id="activity-rows">
          ${activityRows(records)}
        </tbody>
      </table>
    </div>`;
}

/** Each quota with its usage drawn against the limit. */
export function quotasTable(report: QuotaReport): Html {
  return html`<div class="table-wrap" tabindex="0">
    <table>
      <caption class="visually-hidden">
        Quotas
      </caption>
      <thead>
        <tr>
          <th scope="col">Quota</th>
          <th scope="col">Used / limit</th>
        </tr>
      </thead>
      <tbody>
        ${Object.entries(report).map(
          ([name, { used, limit }]) =>
            html`<tr>
              <th scope="row"><code>${name}</code></th>
              <td>${bar(used, limit)} <span class="num">${used} of ${limit}</span></td>
            </tr>`,
        )}
      </tbody>
    </table>
  </div>`;
}
