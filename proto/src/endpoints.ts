import type { z } from 'zod';
import * as schemas from './schemas';
import * as dispatch from './dispatch';
import * as operator from './operator';
import * as vetting from './vetting';

/** The prefix of every v1 subject. */
export const SUBJECT_PREFIX = 'toolsearch.v1';

/** Where a subject's variable tokens come from. */
export type SubjectParams = { tenant: string; session?: string; id?: string; toolset?: string };

/**
 * One request/reply endpoint of the contract: the subject (as a template with `{tenant}`,
 * `{session}`, `{id}` tokens), request and reply schemas, and what it is for. Both the daemon and
 * its clients import these, so a contract change breaks compilation on both sides.
 */
export interface EndpointDescriptor<Req extends z.ZodType = z.ZodType, Rep extends z.ZodType = z.ZodType> {
  readonly name: string;
  readonly template: string;
  readonly request: Req;
  readonly reply: Rep;
  readonly purpose: string;
}

function endpoint<Req extends z.ZodType, Rep extends z.ZodType>(
  name: string,
  template: string,
  request: Req,
  reply: Rep,
  purpose: string,
): EndpointDescriptor<Req, Rep> {
  return { name, template: `${SUBJECT_PREFIX}.${template}`, request, reply, purpose };
}

export const ENDPOINTS = {
  sessionsOpen: endpoint(
    'sessions.open',
    '{tenant}.sessions.open',
    schemas.OpenSessionRequestSchema,
    schemas.OpenSessionReplySchema,
    'Open a session with a grant, a model and settings; returns its id.',
  ),
  sessionsAssemble: endpoint(
    'sessions.assemble',
    '{tenant}.sessions.{session}.assemble',
    schemas.AssembleRequestSchema,
    schemas.AssembleReplySchema,
    'The tool array for the next turn, with tier, listing form, token counts and hash.',
  ),
  sessionsSearch: endpoint(
    'sessions.search',
    '{tenant}.sessions.{session}.search',
    schemas.SearchRequestSchema,
    schemas.SearchReplySchema,
    "The bridge's tool_search for this session.",
  ),
  sessionsDescribe: endpoint(
    'sessions.describe',
    '{tenant}.sessions.{session}.describe',
    schemas.DescribeRequestSchema,
    schemas.DescribeReplySchema,
    "The bridge's tool_describe for this session.",
  ),
  sessionsDispatch: endpoint(
    'sessions.dispatch',
    '{tenant}.sessions.{session}.dispatch',
    dispatch.DispatchRequestSchema,
    dispatch.DispatchReplySchema,
    "Execute one turn's tool calls; held calls come back pending_approval.",
  ),
  sessionsClose: endpoint(
    'sessions.close',
    '{tenant}.sessions.{session}.close',
    schemas.CloseRequestSchema,
    schemas.CloseReplySchema,
    'Close a session and its children.',
  ),
  subagentsSpawn: endpoint(
    'subagents.spawn',
    '{tenant}.subagents.spawn',
    dispatch.SpawnRequestSchema,
    dispatch.SpawnReplySchema,
    'A child session with a narrowed grant and a queued job.',
  ),
  toolsetsPut: endpoint(
    'toolsets.put',
    '{tenant}.toolsets.put',
    schemas.ToolsetPutRequestSchema,
    schemas.ToolsetPutReplySchema,
    "Register or replace a toolset (a plugin, a gateway's tools).",
  ),
  toolsetsDelete: endpoint(
    'toolsets.delete',
    '{tenant}.toolsets.delete',
    schemas.ToolsetDeleteRequestSchema,
    schemas.ToolsetDeleteReplySchema,
    'Remove a toolset.',
  ),
  mcpAttach: endpoint(
    'mcp.attach',
    '{tenant}.mcp.attach',
    schemas.McpAttachRequestSchema,
    schemas.McpAttachReplySchema,
    'Connect an MCP server for the tenant.',
  ),
  mcpDetach: endpoint(
    'mcp.detach',
    '{tenant}.mcp.detach',
    schemas.McpDetachRequestSchema,
    schemas.McpDetachReplySchema,
    'Disconnect an MCP server.',
  ),
  approvalsList: endpoint(
    'approvals.list',
    '{tenant}.approvals.list',
    dispatch.ApprovalsListRequestSchema,
    dispatch.ApprovalsListReplySchema,
    'Held calls of the tenant waiting for a decision.',
  ),
  approvalsDecide: endpoint(
    'approvals.decide',
    '{tenant}.approvals.{id}.decide',
    dispatch.ApprovalDecideRequestSchema,
    dispatch.ApprovalDecideReplySchema,
    'Approve or deny a held call (approver identities only).',
  ),
  sessionsList: endpoint(
    'sessions.list',
    '{tenant}.sessions.list',
    operator.SessionsListRequestSchema,
    operator.SessionsListReplySchema,
    "The tenant's open sessions (for operators).",
  ),
  sessionsShow: endpoint(
    'sessions.show',
    '{tenant}.sessions.{session}.show',
    operator.SessionShowRequestSchema,
    operator.SessionShowReplySchema,
    'One session: its grant, model, children and current tier (for operators).',
  ),
  toolsetsList: endpoint(
    'toolsets.list',
    '{tenant}.toolsets.list',
    operator.ToolsetsListRequestSchema,
    operator.ToolsetsListReplySchema,
    "The tenant's toolsets with tool counts and availability.",
  ),
  auditRecent: endpoint(
    'audit.recent',
    '{tenant}.audit.recent',
    operator.AuditRecentRequestSchema,
    operator.AuditRecentReplySchema,
    'The newest trace records of dispatched calls (for operators).',
  ),
  toolsetsDiff: endpoint(
    'toolsets.diff',
    '{tenant}.toolsets.diff',
    vetting.ToolsetsDiffRequestSchema,
    vetting.ToolsetsDiffReplySchema,
    'Tool definitions waiting for an operator: changes to pinned tools and quarantined tools, with diffs and findings.',
  ),
  toolsetsAccept: endpoint(
    'toolsets.accept',
    '{tenant}.toolsets.accept',
    vetting.ToolsetsAcceptRequestSchema,
    vetting.ToolsetsAcceptReplySchema,
    'Accepts reviewed definitions: pins the changed ones and releases the quarantined ones (operators only).',
  ),
  tenantShow: endpoint(
    'tenant.show',
    '{tenant}.tenant.show',
    operator.TenantShowRequestSchema,
    operator.TenantShowReplySchema,
    "The tenant's usage of each quota against its limit (for operators).",
  ),
  approvalsGet: endpoint(
    'approvals.get',
    '{tenant}.approvals.{id}.get',
    dispatch.ApprovalGetRequestSchema,
    dispatch.ApprovalGetReplySchema,
    'One held call with its decision and, once it ran, its stored result.',
  ),
} as const;
export type EndpointName = keyof typeof ENDPOINTS;

/** Events the daemon publishes. */
export const EVENTS = {
  toolsetChanged: {
    template: `${SUBJECT_PREFIX}.{tenant}.toolsets.evt.changed`,
    schema: schemas.ToolsetChangedEventSchema,
    purpose: 'A toolset of the tenant changed.',
  },
  toolsetVetting: {
    template: `${SUBJECT_PREFIX}.{tenant}.toolsets.evt.vetting`,
    schema: vetting.VettingEventSchema,
    purpose: 'Vetting a toolset found something, held a change, or an operator accepted one (for operators).',
  },
  sessionTier: {
    template: `${SUBJECT_PREFIX}.{tenant}.sessions.{session}.evt.tier`,
    schema: schemas.TierEventSchema,
    purpose: "The session's tier or listing changed.",
  },
  sessionActivity: {
    template: `${SUBJECT_PREFIX}.{tenant}.sessions.{session}.evt.activity`,
    schema: dispatch.ActivityEventSchema,
    purpose: 'A call started or finished (under the real tool name).',
  },
  sessionResult: {
    template: `${SUBJECT_PREFIX}.{tenant}.sessions.{session}.evt.result`,
    schema: dispatch.ResultEventSchema,
    purpose: 'A held call finished after its decision.',
  },
} as const;

/**
 * Served by a toolset's owner, not by the daemon: the daemon asks here to run a plugin or core
 * tool (a gateway serves `exec.core`, a plugin its own toolset id). MCP toolsets are served by
 * the replica that holds the server's connection.
 */
export const EXEC = {
  template: `${SUBJECT_PREFIX}.{tenant}.exec.{toolset}`,
  request: dispatch.ExecRequestSchema,
  reply: dispatch.ExecReplySchema,
  purpose:
    'Run one plugin, core or MCP tool for a session (served by the toolset owner; a `.` in the toolset id is written `%2E`).',
} as const;

/**
 * A toolset id as a subject token: ids may hold `.`, which separates subject tokens, so it is
 * written `%2E` (`%` is never in an id, so the form reads back without doubt). A gateway serving
 * toolset `acme.tools` subscribes to `toolsearch.v1.<tenant>.exec.acme%2Etools`.
 */
export function toolsetSubjectToken(id: string): string {
  return id.replaceAll('.', '%2E');
}

/** Fills a subject template. Tokens must already be valid (tenant and session ids are; toolset ids are encoded). */
export function subject(template: string, params: SubjectParams): string {
  return template.replace(/\{(tenant|session|id|toolset)\}/g, (_, key: keyof SubjectParams) => {
    const given = params[key];
    const value = key === 'toolset' && given !== undefined ? toolsetSubjectToken(given) : given;
    if (value === undefined || value === '' || /[.*> \s]/.test(value))
      throw new Error(`subject token ${key} is missing or invalid`);
    return value;
  });
}

/** The wildcard form a service endpoint listens on: every `{token}` becomes `*`. */
export function subjectPattern(template: string): string {
  return template.replace(/\{(tenant|session|id|toolset)\}/g, '*');
}

/** Reads the tokens of a concrete subject back against its template, or undefined if it does not fit. */
export function parseSubject(template: string, concrete: string): SubjectParams | undefined {
  const expected = template.split('.');
  const actual = concrete.split('.');
  if (expected.length !== actual.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < expected.length; i += 1) {
    const want = expected[i] ?? '';
    const got = actual[i] ?? '';
    const token = /^\{(tenant|session|id|toolset)\}$/.exec(want);
    if (token?.[1] !== undefined) params[token[1]] = got;
    else if (want !== got) return undefined;
  }
  return params['tenant'] === undefined ? undefined : (params as SubjectParams);
}
