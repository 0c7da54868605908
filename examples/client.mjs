#!/usr/bin/env node
// A gateway's loop over NATS in plain JavaScript, using only the `nats` package and the wire
// contract (proto/json-schema/toolsearch-v1.json): open a session, search its tools, call one
// through the bridge, close. Reads what `npm start` writes into its env file:
//   set -a; . <run folder>/demo.env; set +a; node examples/client.mjs "create a github issue"
import { connect, headers, JSONCodec } from 'nats';

const env = process.env;
const tenant = env.TOOLSEARCH_TENANT ?? 'demo';
const user = env.TOOLSEARCH_NATS_USER;
const codec = JSONCodec();
const nc = await connect({
  servers: env.TOOLSEARCH_NATS_URL ?? 'nats://127.0.0.1:4222',
  ...(user ? { user, pass: env.TOOLSEARCH_NATS_PASSWORD, inboxPrefix: `_INBOX_${user}` } : {}),
});

/** One request: the subject under the tenant, the payload, and the bearer secret it presents. */
async function ask(path, payload, bearer) {
  const auth = headers();
  auth.set('Authorization', `Bearer ${bearer}`);
  const reply = codec.decode(
    (await nc.request(`toolsearch.v1.${tenant}.${path}`, codec.encode(payload), { headers: auth, timeout: 10_000 }))
      .data,
  );
  if (!reply.ok) throw new Error(`${path}: ${reply.error.code}: ${reply.error.message}`);
  return reply;
}

try {
  const key = env.TOOLSEARCH_CREDENTIAL;
  if (!key) throw new Error('set TOOLSEARCH_CREDENTIAL (npm start writes it into its env file)');
  const query = process.argv[2] ?? 'create a github issue';
  // The gateway's key opens the session; its token acts on it from then on.
  const { session, token } = await ask(
    'sessions.open',
    { grant: { toolsets: ['mcp-github', 'mcp-slack', 'mcp-weather'] }, model: { contextLength: 128000 } },
    key,
  );
  try {
    const assembled = await ask(`sessions.${session.id}.assemble`, { format: 'openai' }, token);
    console.log(`session ${session.id}: tier ${assembled.tier}, ${assembled.tools.length} tools in the array`);
    const { result } = await ask(`sessions.${session.id}.search`, { queries: [query], limit: 3 }, token);
    console.log(`tool_search "${query}":`, JSON.stringify(result));
    const { results } = await ask(
      `sessions.${session.id}.dispatch`,
      {
        calls: [
          {
            id: 'call-1',
            name: 'tool_call',
            arguments: {
              name: 'github__create_issue',
              arguments: { owner: 'acme', repo: 'demo', title: 'Tried toolsearch' },
            },
          },
        ],
      },
      token,
    );
    console.log('tool_call github__create_issue:', JSON.stringify(results[0]));
  } finally {
    await ask(`sessions.${session.id}.close`, {}, token);
  }
} finally {
  await nc.close();
}
