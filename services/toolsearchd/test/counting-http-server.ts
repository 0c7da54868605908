import { createServer, type Server as HttpServer } from 'node:http';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

/** An HTTP server on 127.0.0.1 that counts the TCP connections made to it. */
export interface CountingServer {
  readonly port: number;
  /** `http://127.0.0.1:<port>` */
  readonly origin: string;
  /** TCP connections accepted so far. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A real HTTP server for outbound tests: `/mcp` is a stateless MCP server with one tool (`ping`),
 * `/redirect` answers 307 to `redirectTo`, `/missing` 404, anything else 200 with an HTML page
 * (a port that answers HTTP but not MCP).
 */
export async function countingServer(port: number, options: { redirectTo?: string } = {}): Promise<CountingServer> {
  let connections = 0;
  const server: HttpServer = createServer((request, response) => {
    if (request.url === '/mcp') {
      void serveMcp(request, response);
      return;
    }
    if (request.url === '/redirect') {
      response.writeHead(307, { location: options.redirectTo ?? '/mcp' }).end();
      return;
    }
    if (request.url === '/missing') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html' }).end('<html><body>not an MCP server</body></html>');
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function serveMcp(
  request: Parameters<StreamableHTTPServerTransport['handleRequest']>[0],
  response: Parameters<StreamableHTTPServerTransport['handleRequest']>[1],
): Promise<void> {
  const server = new Server({ name: 'counted', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [{ name: 'ping', description: 'Answers pong.', inputSchema: { type: 'object', properties: {} } }],
  }));
  server.setRequestHandler(CallToolRequestSchema, () => ({ content: [{ type: 'text', text: 'pong' }] }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  response.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
}
