import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ThrottledLog } from './throttled-log';

function recording() {
  const lines: Record<string, unknown>[] = [];
  const log = pino(
    { level: 'warn' },
    { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  );
  return { log, lines };
}

describe('ThrottledLog', () => {
  it('logs the first problem of a kind, then one per interval with the count left out', () => {
    const { log, lines } = recording();
    const throttled = new ThrottledLog(log, 10_000);
    for (let at = 0; at < 1700; at++) throttled.warn('redis:daemon', 'redis connection problem', new Error('down'), at);
    expect(lines).toHaveLength(1);
    throttled.warn('redis:daemon', 'redis connection problem', new Error('down'), 10_000);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ source: 'redis:daemon', suppressed: 1699, err: 'down' });
    expect(String(lines[1]?.['msg'])).toContain('1699 more like it');
  });

  it('counts each kind on its own and never prints credentials of a URL', () => {
    const { log, lines } = recording();
    const throttled = new ThrottledLog(log, 10_000);
    throttled.warn('a', 'm', new Error('x'), 0);
    throttled.warn('b', 'm', new Error('connect redis://u:secret@h:6379 failed'), 0);
    expect(lines).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain('secret');
  });
});
