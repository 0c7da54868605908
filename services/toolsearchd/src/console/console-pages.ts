import { ApprovalIdSchema, SessionIdSchema, WIRE_ERROR_CODES } from '@toolsearch/proto';
import { RequestError } from '../serve-request';
import { DECISION_OUTCOMES, heldCallDetail, heldCallList, type DecisionOutcome } from './approvals-page';
import type { ConsoleBackend } from './console-backend';
import { ConsoleError } from './console-errors';
import type { SignedIn } from './console-sessions';
import { field } from './form-body';
import { heldCallView, type HeldCallView } from './held-call-view';
import { html, type Html } from './html';
import { notice } from './layout';
import {
  activityRows,
  activityTable,
  quotasTable,
  sessionDetail,
  sessionsTable,
  toolsetsTable,
  whyForm,
  whyResult,
  type SessionRow,
} from './operator-pages';

/** Held calls one page shows at most (the oldest first: they expire first). */
const MAX_HELD_SHOWN = 200;
/** Sessions the sessions page shows at most (newest first). */
const MAX_SESSIONS_SHOWN = 100;

/**
 * The content of each console page, from the daemon's own endpoint code (see ConsoleBackend).
 * Every page is of the signed-in tenant only: ids are looked up under that tenant, so another
 * tenant's held call or session is simply not found.
 */
export class ConsolePages {
  constructor(private readonly backend: ConsoleBackend) {}

  async heldCalls(session: SignedIn): Promise<Html> {
    const approvals = await this.backend.heldCalls(session.tenant, MAX_HELD_SHOWN);
    const views = await Promise.all(approvals.map((approval) => heldCallView(this.backend, approval)));
    return heldCallList(views, this.#csrfFor(session));
  }

  async heldCall(session: SignedIn, id: string, outcome: string | null): Promise<Html> {
    const view = await this.#view(session, id);
    const said =
      outcome !== null && Object.hasOwn(DECISION_OUTCOMES, outcome)
        ? DECISION_OUTCOMES[outcome as DecisionOutcome]
        : undefined;
    return html`${said !== undefined ? notice(outcome === 'decided' ? 'info' : 'error', said) : ''}
      <div id="held-detail">${heldCallDetail(view, this.#csrfFor(session))}</div>`;
  }

  /** The detail's live part (what the stream reloads). */
  async heldCallFragment(session: SignedIn, id: string): Promise<Html> {
    return heldCallDetail(await this.#view(session, id), this.#csrfFor(session));
  }

  /**
   * Decides through the same code as `approvals.<id>.decide`, as the signed-in key. Returns the
   * outcome to show: recorded, someone else was first, or it expired.
   */
  async decide(session: SignedIn, id: string, form: URLSearchParams): Promise<DecisionOutcome> {
    const approvalId = this.#approvalId(id);
    const decision = field(form, 'decision', 10);
    if (decision !== 'approve' && decision !== 'deny')
      throw new ConsoleError('BAD_REQUEST', "the decision is 'approve' or 'deny'.");
    const body = {
      decision,
      reason: field(form, 'reason', 2000, { optional: true }),
      tool: field(form, 'tool', 200),
      digest: field(form, 'digest', 64),
    };
    try {
      await this.backend.decide(session.tenant, approvalId, body, session.name);
      return 'decided';
    } catch (error) {
      if (!(error instanceof RequestError)) throw error;
      if (error.code === WIRE_ERROR_CODES.ALREADY_DECIDED) {
        const now = await this.backend.heldCall(session.tenant, approvalId);
        return now?.state === 'expired' ? 'expired' : 'taken';
      }
      if (error.code === WIRE_ERROR_CODES.APPROVAL_NOT_FOUND) throw new ConsoleError('NOT_FOUND', error.message);
      if (error.code === WIRE_ERROR_CODES.FORBIDDEN) throw new ConsoleError('FORBIDDEN', error.message);
      throw new ConsoleError('BAD_REQUEST', error.message);
    }
  }

  async sessions(session: SignedIn): Promise<Html> {
    const { tenant } = session;
    const list = await this.backend.views.sessionsList(tenant, { limit: MAX_SESSIONS_SHOWN });
    const rows = await Promise.all(list.sessions.map((summary) => this.#sessionRow(tenant, summary.id)));
    return sessionsTable(
      rows.filter((row): row is SessionRow => row !== undefined),
      list.total,
    );
  }

  async session(session: SignedIn, id: string, query: string | null): Promise<Html> {
    const parsed = SessionIdSchema.safeParse(id);
    const row = parsed.success ? await this.#sessionRow(session.tenant, parsed.data) : undefined;
    if (row === undefined || !parsed.success)
      throw new ConsoleError('NOT_FOUND', 'no open session with this id for this tenant.');
    const asked = (query ?? '').trim().slice(0, 1000);
    let why = html``;
    if (asked !== '') {
      const reply = await this.backend.search(session.tenant, parsed.data, { queries: [asked], explain: true });
      why =
        'error' in reply
          ? notice('error', reply.error.message)
          : html`<h3>Why these tools for “${asked}”</h3>
              ${whyResult(asked, ('explain' in reply ? reply.explain : undefined)?.[0]?.matches ?? [])}`;
    }
    return html`${sessionDetail(row)}
      <h2>Why this tool</h2>
      ${whyForm(parsed.data, asked)} ${why}`;
  }

  async toolsets(session: SignedIn): Promise<Html> {
    return toolsetsTable((await this.backend.views.toolsetsList(session.tenant)).toolsets);
  }

  async activity(session: SignedIn): Promise<Html> {
    return activityTable(await this.#recent(session));
  }

  /** The activity table's rows alone (what the live stream reloads). */
  async activityRows(session: SignedIn): Promise<Html> {
    return activityRows(await this.#recent(session));
  }

  async #recent(session: SignedIn) {
    return (await this.backend.views.auditRecent(session.tenant, { limit: 50 })).records;
  }

  async quotas(session: SignedIn): Promise<Html> {
    return quotasTable(await this.backend.quotas(session.tenant));
  }

  async #sessionRow(tenant: string, id: string): Promise<SessionRow | undefined> {
    const descriptor = await this.backend.session(tenant, id);
    if (descriptor === undefined) return undefined;
    const shown = await this.backend.views.sessionShow(tenant, id);
    return { ...shown, gateway: descriptor.owner };
  }

  async #view(session: SignedIn, id: string): Promise<HeldCallView> {
    const approval = await this.backend.heldCall(session.tenant, this.#approvalId(id));
    if (approval === undefined) throw new ConsoleError('NOT_FOUND', 'no held call with this id for this tenant.');
    return heldCallView(this.backend, approval);
  }

  #approvalId(id: string): string {
    const parsed = ApprovalIdSchema.safeParse(id);
    if (!parsed.success) throw new ConsoleError('NOT_FOUND', 'no held call with this id for this tenant.');
    return parsed.data;
  }

  /** Only approvers get decision forms (an operator reads held calls but never decides). */
  #csrfFor(session: SignedIn): string | undefined {
    return session.roles.has('approver') ? session.csrf : undefined;
  }
}
