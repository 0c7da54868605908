import type { JsonObject } from '@toolsearch/catalog';
import type { ListingForm } from './listing';

/** A tool in the neutral shape assembly works with; `formatTools` turns it into a vendor format. */
export interface NeutralTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonObject;
  readonly outputSchema?: JsonObject;
  readonly annotations?: JsonObject;
}

export interface BridgeSchemaInput {
  readonly deferredCount: number;
  readonly listing: string | null;
  readonly listingForm: ListingForm;
  readonly defaultLimit: number;
  readonly maxLimit: number;
  readonly maxQueries: number;
  readonly maxNames: number;
  readonly maxCalls: number;
}

function searchDescription(input: BridgeSchemaInput): string {
  const base = [
    `Find tools among ${input.deferredCount} more that are not loaded yet.`,
    'Write each query as keywords naming a service, an action and an object, such as "github create issue" or "slack post message", not as a question.',
    'Put every capability you need into one call, one query each; each query is searched on its own.',
    "The answer lists matching tool names per query and one shared map with each tool's description and required arguments.",
    'Then load the schemas with tool_describe and run the tool with tool_call.',
    'Tools already in your tool list need no search.',
  ].join(' ');
  if (input.listing === null) return base;
  if (input.listingForm === 'groups') {
    return `${base}\n\nThe sources below are connected, each with its number of tools; their tools can be used through these bridge tools. For any request in their domains, search here before saying a capability is missing or reaching for a generic tool.\n\n${input.listing}`;
  }
  const mixed =
    input.listingForm === 'mixed'
      ? ' Sources shown only with a tool count have tools too: find them with tool_search before deciding something is missing.'
      : '';
  return `${base}\n\nEvery tool listed below exists and can be used now. If you see the name you need, skip the search and call tool_describe with it.${mixed}\n\n${input.listing}`;
}

/**
 * The three bridge tools, written for the model: how to query, that listed tools exist, describe
 * before call, and batching. The key order of every schema is fixed, because the bytes of the tool
 * array are part of a prompt cache key.
 */
export function bridgeTools(input: BridgeSchemaInput): NeutralTool[] {
  return [
    {
      name: 'tool_search',
      description: searchDescription(input),
      inputSchema: {
        type: 'object',
        properties: {
          queries: {
            type: 'array',
            items: { type: 'string' },
            description: `Keyword queries, one per capability (service + action + object), at most ${input.maxQueries}. A single string counts as one query.`,
          },
          limit: {
            type: 'integer',
            description: `Most matches to return per query: ${input.defaultLimit} when omitted, never more than ${input.maxLimit}.`,
          },
        },
        required: ['queries'],
      },
    },
    {
      name: 'tool_describe',
      description:
        "Load the full input schemas of tools found with tool_search or named in the listing. Do this before tool_call whenever you do not know a tool's arguments, and ask for every schema you need in one call.",
      inputSchema: {
        type: 'object',
        properties: {
          names: {
            type: 'array',
            items: { type: 'string' },
            description: `Exact tool names, at most ${input.maxNames}. A single string counts as one name.`,
          },
        },
        required: ['names'],
      },
    },
    {
      name: 'tool_call',
      description: `Run tools that are not in your tool list. Pass calls as a list of {name, arguments}, one entry per invocation (up to ${input.maxCalls}); independent calls may go together and their results come back in the same order. Arguments must match the schema from tool_describe; they are checked before anything runs. Approvals and policies apply exactly as for directly listed tools.`,
      inputSchema: {
        type: 'object',
        properties: {
          calls: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                name: { type: 'string', description: 'The exact tool name.' },
                arguments: { type: 'object', description: "Arguments that match the tool's input schema." },
              },
              required: ['name', 'arguments'],
            },
            description: 'The calls to make, in order.',
          },
        },
        required: ['calls'],
      },
    },
  ];
}
