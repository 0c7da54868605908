import { z } from 'zod';
import { ENDPOINTS, EVENTS } from './endpoints';
import { ErrorReplySchema } from './errors';

/**
 * The whole contract as JSON Schema, for gateways in other languages: one document with each
 * endpoint's subject, purpose, request and reply, and each event's subject and payload.
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
  };
}
