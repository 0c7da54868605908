export { WIRE_ERROR_CODES, WireErrorSchema, ErrorReplySchema, errorReply, ToolsearchWireError } from './errors';
export type { WireErrorCode, WireError, ErrorReply } from './errors';
export {
  TenantIdSchema,
  SessionIdSchema,
  SessionRoleSchema,
  GrantSchema,
  ModelSpecSchema,
  ToolFormatSchema,
  OpenSessionRequestSchema,
  OpenSessionReplySchema,
  SessionInfoSchema,
  AssembleRequestSchema,
  AssembleReplySchema,
  SearchRequestSchema,
  SearchReplySchema,
  DescribeRequestSchema,
  DescribeReplySchema,
  CloseRequestSchema,
  CloseReplySchema,
  ToolsetPutRequestSchema,
  ToolsetPutReplySchema,
  ToolsetDeleteRequestSchema,
  ToolsetDeleteReplySchema,
  ToolsetChangedEventSchema,
  TierEventSchema,
  PendingRequestSchema,
  PendingReplySchema,
  McpTransportSchema,
  McpServerNameSchema,
  McpAttachRequestSchema,
  McpAttachReplySchema,
  McpDetachRequestSchema,
  McpDetachReplySchema,
} from './schemas';
export type {
  SessionRole,
  Grant,
  ModelSpec,
  OpenSessionRequest,
  SessionInfo,
  AssembleReply,
  ToolsetChangedEvent,
  TierEvent,
} from './schemas';
export { SUBJECT_PREFIX, ENDPOINTS, EVENTS, subject, subjectPattern, parseSubject } from './endpoints';
export type { EndpointDescriptor, EndpointName, SubjectParams } from './endpoints';
export { contractJsonSchema } from './json-schema';
