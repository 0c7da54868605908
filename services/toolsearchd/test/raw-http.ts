import { request, type Agent, type IncomingHttpHeaders } from 'node:http';
import { connect } from 'node:net';

/** Raw HTTP/1.1 clients for edge tests: they report what a client sees (answers, resets, closes). */

/** What a raw HTTP/1.1 exchange ended with: the answer, or the socket error the client saw. */
export interface Exchange {
  status?: number;
  headers?: IncomingHttpHeaders;
  body?: string;
  /** The client's local port: two exchanges on one connection share it. */
  port?: number;
  error?: string;
  ms: number;
}

/** One request to `127.0.0.1:port` over `agent` (or a connection of its own); resolves with the answer or the error. */
export function exchange(
  port: number,
  options: { method: string; path: string; headers?: Record<string, string>; body?: Buffer; agent?: Agent },
  timeoutMs = 5000,
): Promise<Exchange> {
  const started = Date.now();
  return new Promise((resolve) => {
    const done = (result: Omit<Exchange, 'ms'>) => {
      clearTimeout(timer);
      resolve({ ...result, ms: Date.now() - started });
    };
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method: options.method,
        path: options.path,
        headers: options.headers ?? {},
        // Without an agent of the test's, a connection of its own.
        agent: options.agent ?? false,
      },
      (res) => {
        // Once answered, the server may close while the rest of a body is still being written.
        req.on('error', () => undefined);
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          done({
            status: res.statusCode,
            headers: res.headers,
            body,
            port: res.socket?.localPort ?? req.socket?.localPort,
          }),
        );
        res.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      done({ error: 'no answer in time' });
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    const body = options.body;
    if (body === undefined) return void req.end();
    let offset = 0;
    const pump = (): void => {
      while (offset < body.length) {
        const chunk = body.subarray(offset, offset + 64 * 1024);
        offset += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

/**
 * Writes `head` on a connection of its own, then `afterContinue` once "100 Continue" arrives;
 * resolves with everything received until the server closes or goes quiet for 1 s.
 */
export function raw(port: number, head: string, afterContinue?: string): Promise<string> {
  return new Promise((resolve) => {
    let received = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let quiet = setTimeout(() => socket.destroy(), 1000);
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      clearTimeout(quiet);
      quiet = setTimeout(() => socket.destroy(), 1000);
      if (afterContinue !== undefined && received.startsWith('HTTP/1.1 100 ')) {
        socket.write(afterContinue);
        afterContinue = undefined;
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(quiet);
      resolve(received);
    });
  });
}
