import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { EDGE_ERROR_CODES, RPC_CODES, refusalBody } from './edge-refusal';

/**
 * Caps the TCP connections open at once from one remote address (`http.maxConnectionsPerAddress`;
 * 0: no cap). A connection over the cap is answered at once with a 429 `QUOTA_EXCEEDED` and
 * closed, before its request is read: refusing on accept keeps a flood of idle sockets from one
 * address from holding file descriptors until the headers timeout. Behind a proxy every client
 * shares the proxy's address: raise the cap, or cap at the proxy and set 0.
 */
export function capConnectionsPerAddress(server: Server, max: number): void {
  if (max === 0) return;
  const open = new Map<string, number>();
  const body = refusalBody({
    status: 429,
    rpc: RPC_CODES.QUOTA,
    code: EDGE_ERROR_CODES.QUOTA_EXCEEDED,
    message: `quota 'http.maxConnectionsPerAddress' reached: ${max} connections are open from this address; reuse them (keep-alive) or close some.`,
    data: { quota: 'http.maxConnectionsPerAddress', limit: max },
  });
  const answer =
    'HTTP/1.1 429 Too Many Requests\r\ncontent-type: application/json\r\n' +
    `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`;
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? 'unknown';
    const count = open.get(address) ?? 0;
    if (count >= max) {
      // Destroyed once the answer is flushed: the HTTP parser never sees a request from it.
      socket.end(answer, () => socket.destroy());
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left === 0) open.delete(address);
      else open.set(address, left);
    });
  });
}
