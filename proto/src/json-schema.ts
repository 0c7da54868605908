import { z } from 'zod';
import { WorkerJobSchema } from './dispatch';
import { ENDPOINTS, EVENTS, EXEC } from './endpoints';
import { HOOKS } from './hooks';
import { ErrorReplySchema } from './errors';

/**
 * The whole contract as JSON Schema, for gateways in other languages: one document with each
 * endpoint's subject, purpose, request and reply, each event's subject and payload, what a
 * toolset owner serves (`exec`: the daemon's request and the owner's reply) and the job a worker
 * receives.
 */
export function contractJsonSchema(): Record<string, unknown> {
  const toSchema = (schema: z.ZodType, io: 'input' | 'output') =>
    z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'toolsearch wire contract v1',
    description: 'Generated from proto/src by `npm run generate -w @toolsearch/proto`; do not edit by hand.',
    endpoints: Object.fromEntries(
      Object.values(ENDPOINTS).map((endpoint) => [
        endpoint.name,
        {
          subject: endpoint.template,
          purpose: endpoint.purpose,
          request: toSchema(endpoint.request, 'input'),
          reply: { oneOf: [toSchema(endpoint.reply, 'output'), toSchema(ErrorReplySchema, 'output')] },
        },
      ]),
    ),
    events: Object.fromEntries(
      Object.entries(EVENTS).map(([name, event]) => [
        name,
        { subject: event.template, purpose: event.purpose, payload: toSchema(event.schema, 'output') },
      ]),
    ),
    exec: {
      subject: EXEC.template,
      purpose: EXEC.purpose,
      // The daemon sends the request and the toolset owner answers: the roles of an endpoint, reversed.
      request: toSchema(EXEC.request, 'output'),
      reply: toSchema(EXEC.reply, 'input'),
    },
    hooks: Object.fromEntries(
      Object.entries(HOOKS).map(([name, hook]) => [
        name,
        {
          subject: hook.template,
          purpose: hook.purpose,
          // Asked by the daemon, answered by the gateway: like exec, the roles are reversed.
          request: toSchema(hook.request, 'output'),
          reply: toSchema(hook.reply, 'input'),
        },
      ]),
    ),
    workerJob: {
      purpose: 'The data of a subagent or kanban job (BullMQ, queue `<role>-<tenant>`), as the worker receives it.',
      payload: toSchema(WorkerJobSchema, 'output'),
    },
  };
}
