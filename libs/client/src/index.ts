export { ToolsearchClient } from './client';
export type { ClientOptions } from './client';
export {
  describeNatsAuth,
  NATS_AUTH_ERROR_CODES,
  NATS_AUTH_SOURCES,
  natsAuthFromEnv,
  NatsAuthError,
  natsConnectOptions,
  redactUrl,
  resolveNatsAuth,
} from './nats-auth';
export type { NatsAuth, NatsAuthErrorCode, NatsAuthSettings, ResolvedNatsAuth } from './nats-auth';
