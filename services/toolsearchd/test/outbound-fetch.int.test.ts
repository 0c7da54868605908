import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundPolicy } from '../src/outbound/address-policy';
import { guardedFetch, OutboundGuard, type Resolver } from '../src/outbound/guarded-fetch';
import { OutboundConfigSchema } from '../src/outbound/outbound-config';
import { OutboundRefusedError } from '../src/outbound/outbound-errors';
import { countingServer, type CountingServer } from './counting-http-server';
import { freePort } from './harness';

/** A resolver that answers from a table, each name with a list of answers used in turn (the last repeats). */
function tableResolver(table: Record<string, string[][]>): Resolver & { calls: string[] } {
  const calls: string[] = [];
  const resolver = (host: string) => {
    calls.push(host);
    const answers = table[host];
    if (answers === undefined)
      return Promise.reject(Object.assign(new Error(`no such host ${host}`), { code: 'ENOTFOUND' }));
    const answer = answers[Math.min(calls.filter((name) => name === host).length - 1, answers.length - 1)] ?? [];
    return Promise.resolve(answer.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return Object.assign(resolver, { calls });
}

const guard = (config: Record<string, unknown>, resolver: Resolver) =>
  new OutboundGuard(new OutboundPolicy(OutboundConfigSchema.parse(config)), resolver);

describe('guardedFetch', () => {
  let server: CountingServer;
  let target: CountingServer;
  beforeAll(async () => {
    target = await countingServer(await freePort());
    server = await countingServer(await freePort(), { redirectTo: `${target.origin}/mcp` });
  });
  afterAll(async () => {
    await server.close();
    await target.close();
  });

  it('connects to the address it checked, not to one resolved again (the name is unknown to the system)', async () => {
    const before = server.connections();
    const resolver = tableResolver({ 'pinned.invalid': [['127.0.0.1']] });
    const outbound = guardedFetch(guard({ allow: ['127.0.0.1'] }, resolver));
    try {
      const response = await outbound.fetch(`http://pinned.invalid:${server.port}/page`);
      expect(response.status).toBe(200);
      expect(await response.text()).toContain('not an MCP server');
      expect(server.connections()).toBe(before + 1);
    } finally {
      outbound.close();
    }
  });

  it('refuses a host that answered an allowed address to the check and a private one to the connection', async () => {
    const before = server.connections();
    const resolver = tableResolver({ 'rebind.invalid': [['127.0.0.1'], ['10.0.0.1']] });
    const checked = guard({ allow: ['127.0.0.1'] }, resolver);
    const url = `http://rebind.invalid:${server.port}/page`;
    await expect(checked.resolve(new URL(url))).resolves.toHaveLength(1);
    const outbound = guardedFetch(checked);
    try {
      await expect(outbound.fetch(url)).rejects.toBeInstanceOf(OutboundRefusedError);
      expect(server.connections()).toBe(before);
    } finally {
      outbound.close();
    }
  });

  it('refuses a literal loopback address without resolving or connecting', async () => {
    const before = server.connections();
    const resolver = tableResolver({});
    const outbound = guardedFetch(guard({}, resolver));
    const refused = await outbound.fetch(`http://127.0.0.1:${server.port}/mcp`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OutboundRefusedError);
    expect((refused as OutboundRefusedError).kind).toBe('loopback');
    expect(resolver.calls).toEqual([]);
    expect(server.connections()).toBe(before);
    outbound.close();
  });

  it('never follows a redirect, even to an address the policy would allow', async () => {
    const before = target.connections();
    const outbound = guardedFetch(guard({ allow: ['127.0.0.1'] }, tableResolver({})));
    try {
      const refused = await outbound.fetch(`${server.origin}/redirect`).catch((error: unknown) => error);
      expect(refused).toMatchObject({ refusal: { rule: 'redirect' } });
      expect(target.connections()).toBe(before);
    } finally {
      outbound.close();
    }
  });

  it('passes status, headers and a streamed body through, and sends the request body', async () => {
    const outbound = guardedFetch(guard({ allow: ['127.0.0.1'] }, tableResolver({})));
    try {
      const missing = await outbound.fetch(`${server.origin}/missing`, { method: 'POST', body: '{}' });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toBe('text/plain');
      expect(await missing.text()).toBe('not found');
    } finally {
      outbound.close();
    }
  });
});
