import type { IncomingMessage } from 'node:http';
import { jsonDepthWithin } from '../json-limits';
import { EDGE_ERROR_CODES, RPC_CODES, type Refusal } from './edge-refusal';

export type BodyResult =
  | { readonly ok: true; readonly value: unknown; readonly bytes: number }
  | { readonly ok: false; readonly refusal: Refusal };

/**
 * Reads a JSON request body of at most `maxBytes`, giving up when no byte arrives for `idleMs`
 * (the server's `requestTimeout` bounds the whole body). A body announced larger than the limit is
 * refused before any of it is read; otherwise a client waiting on `Expect: 100-continue` is told
 * to send it (`proceed`). The request is never destroyed here: the caller answers the
 * refusal, which closes the connection cleanly (see `refuse`), so the client reads a 413 or 408
 * instead of a reset.
 */
export function readJsonBody(
  req: IncomingMessage,
  options: { maxBytes: number; maxDepth: number; idleMs: number; proceed: () => void },
): Promise<BodyResult> {
  const { maxBytes, idleMs } = options;
  const tooLarge: Refusal = {
    status: 413,
    rpc: RPC_CODES.PARSE_ERROR,
    code: EDGE_ERROR_CODES.PAYLOAD_TOO_LARGE,
    message: `the request body is over ${maxBytes} bytes.`,
    data: { limit: maxBytes },
  };
  const announced = Number(req.headers['content-length'] ?? 0);
  if (Number.isFinite(announced) && announced > maxBytes) return Promise.resolve({ ok: false, refusal: tooLarge });
  if (req.headers.expect?.toLowerCase() === '100-continue') options.proceed();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const finish = (result: BodyResult): void => {
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      // Whatever still arrives is discarded until the answer closes the connection.
      req.resume();
      resolve(result);
    };
    const arm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(
        () =>
          finish({
            ok: false,
            refusal: {
              status: 408,
              rpc: RPC_CODES.PARSE_ERROR,
              code: EDGE_ERROR_CODES.REQUEST_TIMEOUT,
              message: `the request body sent nothing for ${idleMs} ms.`,
            },
          }),
        idleMs,
      );
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) return finish({ ok: false, refusal: tooLarge });
      chunks.push(chunk);
      arm();
    };
    const onEnd = (): void => {
      const body = Buffer.concat(chunks);
      // Nesting is bounded before anything parses or walks the body (a deep one would overflow the stack).
      if (!jsonDepthWithin(body, options.maxDepth))
        return finish({
          ok: false,
          refusal: {
            status: 400,
            rpc: RPC_CODES.PARSE_ERROR,
            code: EDGE_ERROR_CODES.BAD_REQUEST,
            message: `the request body nests deeper than ${options.maxDepth} levels (limits.maxJsonDepth).`,
            data: { limit: options.maxDepth },
          },
        });
      try {
        finish({ ok: true as const, value: JSON.parse(body.toString('utf8')) as unknown, bytes: body.length });
      } catch {
        finish({
          ok: false,
          refusal: {
            status: 400,
            rpc: RPC_CODES.PARSE_ERROR,
            code: EDGE_ERROR_CODES.BAD_REQUEST,
            message: 'the request body is not valid JSON.',
          },
        });
      }
    };
    // The client went away mid-body: nobody reads the answer, but the caller still cleans up.
    const onError = (): void =>
      finish({
        ok: false,
        refusal: {
          status: 400,
          rpc: RPC_CODES.PARSE_ERROR,
          code: EDGE_ERROR_CODES.BAD_REQUEST,
          message: 'the request was aborted.',
        },
      });
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    arm();
  });
}
