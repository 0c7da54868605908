#!/usr/bin/env node
// A demo MCP server (stdio) for `npm start`: serves the tools of one server of
// examples/catalogs/workspace.jsonl (`node examples/demo-mcp-server.mjs github`) and answers every
// call with canned demo data that says so. It reaches no real service; it exists so that every
// tool the demo lists can be called end to end (search → describe → call) through the daemon.
import { readFileSync } from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const name = process.argv[2];
const catalog = new URL('./catalogs/workspace.jsonl', import.meta.url);
const tools = readFileSync(catalog, 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line))
  .filter((tool) => tool.server === name)
  .map(({ name: toolName, description, inputSchema }) => ({ name: toolName, description, inputSchema }));
if (tools.length === 0) {
  process.stderr.write(`demo-mcp-server: no tools of server '${name}' in ${catalog.pathname}\n`);
  process.exit(2);
}

const server = new Server({ name: `demo-${name}`, version: '0.1.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, (request) => {
  const tool = tools.find((candidate) => candidate.name === request.params.name);
  if (tool === undefined)
    return { isError: true, content: [{ type: 'text', text: `no tool '${request.params.name}' here` }] };
  const answer = {
    demo: true,
    note: `demo data: this example '${name}' server reaches no real service`,
    tool: tool.name,
    arguments: request.params.arguments ?? {},
  };
  return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: answer };
});
await server.connect(new StdioServerTransport());
