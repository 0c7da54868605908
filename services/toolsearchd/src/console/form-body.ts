import type { IncomingMessage } from 'node:http';
import { ConsoleError } from './console-errors';

/** The console's forms are small: a key, a reason, a query. */
export const MAX_FORM_BYTES = 16 * 1024;

/**
 * Reads an `application/x-www-form-urlencoded` body of at most `maxBytes`, giving up when nothing
 * arrives for `idleMs`. A body announced larger is refused before it is read.
 */
export function readForm(
  req: IncomingMessage,
  options: { maxBytes?: number; idleMs: number },
): Promise<URLSearchParams> {
  const maxBytes = options.maxBytes ?? MAX_FORM_BYTES;
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded')
    return Promise.reject(
      new ConsoleError('BAD_REQUEST', 'the console takes form posts (application/x-www-form-urlencoded).'),
    );
  const tooLarge = new ConsoleError('PAYLOAD_TOO_LARGE', `the form is over ${maxBytes} bytes.`);
  if (Number(req.headers['content-length'] ?? 0) > maxBytes) return Promise.reject(tooLarge);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let idle: NodeJS.Timeout | undefined;
    const finish = (error: ConsoleError | undefined): void => {
      clearTimeout(idle);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.resume();
      if (error !== undefined) reject(error);
      else resolve(new URLSearchParams(Buffer.concat(chunks).toString('utf8')));
    };
    const arm = (): void => {
      clearTimeout(idle);
      idle = setTimeout(
        () => finish(new ConsoleError('REQUEST_TIMEOUT', `the form sent nothing for ${options.idleMs} ms.`)),
        options.idleMs,
      );
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) return finish(tooLarge);
      chunks.push(chunk);
      arm();
    };
    const onEnd = (): void => finish(undefined);
    const onError = (): void => finish(new ConsoleError('BAD_REQUEST', 'the form was cut off.'));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    arm();
  });
}

/** One field of a form: present once, at most `max` characters (trimmed), or BAD_REQUEST naming it. */
export function field(form: URLSearchParams, name: string, max: number, options: { optional?: boolean } = {}): string {
  const values = form.getAll(name);
  if (values.length > 1) throw new ConsoleError('BAD_REQUEST', `the field '${name}' is sent more than once.`);
  const value = (values[0] ?? '').trim();
  if (value === '' && options.optional !== true)
    throw new ConsoleError('BAD_REQUEST', `the field '${name}' is missing.`);
  if (value.length > max) throw new ConsoleError('BAD_REQUEST', `the field '${name}' is over ${max} characters.`);
  return value;
}
