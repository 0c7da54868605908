import { Cluster, Redis, ReplyError } from 'ioredis';
import { ErrorCode, NatsError } from 'nats';
import { describe, expect, it } from 'vitest';
import { freePort } from '../test/harness';
import { isStoreUnavailable } from './store-errors';

describe('isStoreUnavailable', () => {
  it('is true for nats.js no-responders, JetStream-unavailable, timeout and connection codes', () => {
    for (const code of [ErrorCode.NoResponders, ErrorCode.Timeout, ErrorCode.Disconnect, ErrorCode.ConnectionClosed])
      expect(isStoreUnavailable(new NatsError('x', code))).toBe(true);
  });

  it('is true for a JetStream API error of a cluster between leaders, by its err_code', () => {
    const error = Object.assign(new NatsError('stream is offline', '500'), {
      api_error: { code: 500, err_code: 10118 },
    });
    expect(isStoreUnavailable(error)).toBe(true);
  });

  it('is false for other NATS errors and for errors whose text merely mentions a timeout', () => {
    expect(isStoreUnavailable(new NatsError('bad', ErrorCode.BadPayload))).toBe(false);
    expect(isStoreUnavailable(new Error('TIMEOUT ECONNREFUSED Connection is closed'))).toBe(false);
    expect(isStoreUnavailable(new TypeError('Connection is closed.'))).toBe(false);
    expect(isStoreUnavailable('TIMEOUT')).toBe(false);
  });

  it('is true for a socket error code and through a cause chain', () => {
    const refused = Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' });
    expect(isStoreUnavailable(refused)).toBe(true);
    expect(isStoreUnavailable(new Error('wrapped', { cause: new NatsError('t', ErrorCode.Timeout) }))).toBe(true);
  });

  it('is true for what ioredis rejects commands with when Redis is not reachable', async () => {
    const port = await freePort();
    const offline = new Redis({ port, host: '127.0.0.1', lazyConnect: true, enableOfflineQueue: false });
    const retrying = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 0, retryStrategy: () => 50 });
    offline.on('error', () => undefined);
    retrying.on('error', () => undefined);
    try {
      expect(isStoreUnavailable(await offline.get('k').catch((error: unknown) => error))).toBe(true);
      expect(isStoreUnavailable(await retrying.get('k').catch((error: unknown) => error))).toBe(true);
      offline.disconnect();
      expect(isStoreUnavailable(await offline.get('k').catch((error: unknown) => error))).toBe(true);
    } finally {
      offline.disconnect();
      retrying.disconnect();
    }
  });

  it('is true for Redis replies of a server between roles, by their code, and false for other replies', () => {
    const reply = (text: string) => new (ReplyError as new (message: string) => Error)(text);
    for (const text of [
      'CLUSTERDOWN The cluster is down',
      'TRYAGAIN Multiple keys request during rehashing of slot',
      'MASTERDOWN Link with MASTER is down',
      'LOADING Redis is loading the dataset in memory',
      'MOVED 13006 127.0.0.1:17603',
      "READONLY You can't write against a read only replica.",
    ])
      expect(isStoreUnavailable(reply(text))).toBe(true);
    expect(isStoreUnavailable(reply("CROSSSLOT Keys in request don't hash to the same slot"))).toBe(false);
    expect(isStoreUnavailable(reply('WRONGTYPE Operation against a key holding the wrong kind of value'))).toBe(false);
    expect(isStoreUnavailable(new Error('CLUSTERDOWN as plain text'))).toBe(false);
  });

  it('is true for what the ioredis Cluster client rejects commands with when no node answers', async () => {
    const port = await freePort();
    const cluster = new Cluster([{ host: '127.0.0.1', port }], {
      lazyConnect: true,
      enableOfflineQueue: false,
      clusterRetryStrategy: () => null,
    });
    cluster.on('error', () => undefined);
    try {
      expect(isStoreUnavailable(await cluster.get('k').catch((error: unknown) => error))).toBe(true);
    } finally {
      cluster.disconnect();
    }
  });
});
