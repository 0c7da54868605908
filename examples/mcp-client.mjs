#!/usr/bin/env node
// An MCP client of the daemon's /mcp endpoint in plain JavaScript (the MCP TypeScript SDK): list the
// tools a session sees, search with the bridge, call a tool through it. Reads what `npm start`
// writes into its env file:
//   set -a; . <run folder>/demo.env; set +a; node examples/mcp-client.mjs
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const url = process.env.TOOLSEARCH_MCP_URL ?? 'http://127.0.0.1:8420/mcp';
const key = process.env.TOOLSEARCH_API_KEY;
if (!key) throw new Error('set TOOLSEARCH_API_KEY (npm start writes it into its env file)');

const client = new Client({ name: 'toolsearch-example', version: '0.1.0' });
const transport = new StreamableHTTPClientTransport(new URL(url), {
  requestInit: { headers: { Authorization: `Bearer ${key}` } },
});
await client.connect(transport);
try {
  const { tools } = await client.listTools();
  console.log(`${tools.length} tools: ${tools.map((tool) => tool.name).join(', ')}`);
  const found = await client.callTool({ name: 'tool_search', arguments: { queries: ['weather in a city'], limit: 2 } });
  console.log('tool_search:', found.content?.[0]?.text);
  const called = await client.callTool({
    name: 'tool_call',
    arguments: { name: 'weather__current_weather', arguments: { city: 'Tokyo' } },
  });
  console.log('tool_call weather__current_weather:', called.content?.[0]?.text);
} finally {
  // Ends the MCP session (and the gateway session the key opened for it).
  await transport.terminateSession().catch(() => undefined);
  await client.close();
}
