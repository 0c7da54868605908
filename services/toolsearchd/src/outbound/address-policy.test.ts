import { describe, expect, it } from 'vitest';
import { addressKind, OutboundPolicy, parseAllowEntry } from './address-policy';
import { OutboundConfigSchema, tenantOutbound } from './outbound-config';

const policy = (config: Record<string, unknown> = {}) => new OutboundPolicy(OutboundConfigSchema.parse(config));
const url = (text: string) => new URL(text);

describe('addressKind', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.31.255.1', 'private'],
    ['192.168.0.1', 'private'],
    ['100.64.0.1', 'private'],
    ['100.127.255.254', 'private'],
    ['fd12:3456::1', 'private'],
    ['fc00::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['::7f00:1', 'reserved'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:a9fe:a9fe::1', 'link-local'],
    ['not an address', 'reserved'],
  ])('classifies %s as %s', (address, kind) => {
    expect(addressKind(address)).toBe(kind);
  });

  it.each(['93.184.216.34', '8.8.8.8', '100.128.0.1', '172.32.0.1', '2606:4700::1111', '64:ff9b::808:808'])(
    'classifies %s as public',
    (address) => {
      expect(addressKind(address)).toBe('public');
    },
  );
});

describe('parseAllowEntry', () => {
  it.each([
    'mcp.example.com',
    '*.example.com',
    '127.0.0.1',
    '10.0.0.0/8',
    'fd00::/8',
    '[::1]',
    'https://mcp.internal:8443/v1/',
  ])('accepts %s', (entry) => {
    expect(parseAllowEntry(entry)).toBeDefined();
  });

  it.each([
    'ftp://files.example.com/',
    'https://user:pw@example.com/',
    '10.0.0.0/33',
    'exa mple.com',
    '*',
    'http://a/?q=1',
  ])('refuses %s', (entry) => {
    expect(parseAllowEntry(entry)).toBeUndefined();
  });

  it('is checked by the config schema, which names the entry at fault', () => {
    const result = OutboundConfigSchema.safeParse({ allow: ['mcp.example.com', 'ftp://x/'] });
    expect(result.error?.issues[0]?.path).toEqual(['allow', 1]);
  });
});

describe('OutboundPolicy', () => {
  it('allows a URL whose every address is public when nothing is configured', () => {
    expect(policy().decide(url('https://mcp.example.com/mcp'), ['93.184.216.34', '2606:4700::1111'])).toEqual({
      allowed: true,
    });
  });

  it('refuses a URL when any one of its addresses is not public', () => {
    expect(policy().decide(url('https://mixed.example.com/'), ['93.184.216.34', '10.0.0.1'])).toEqual({
      allowed: false,
      rule: 'address',
      kind: 'private',
    });
  });

  it('refuses a host that did not resolve like a private one', () => {
    expect(policy().decide(url('https://nowhere.invalid/'), [])).toMatchObject({ allowed: false, rule: 'address' });
  });

  it('refuses schemes other than http and https whatever the allow list says', () => {
    expect(policy({ allow: ['*.example.com'] }).decide(url('ftp://files.example.com/'), ['93.184.216.34'])).toEqual({
      allowed: false,
      rule: 'scheme',
    });
  });

  it('admits loopback and private addresses with allowPrivate, but never link-local or unspecified', () => {
    const open = policy({ allowPrivate: true });
    expect(open.decide(url('http://127.0.0.1:8080/'), ['127.0.0.1']).allowed).toBe(true);
    expect(open.decide(url('http://10.0.0.5/'), ['10.0.0.5']).allowed).toBe(true);
    expect(open.decide(url('http://[fd00::5]/'), ['fd00::5']).allowed).toBe(true);
    expect(open.decide(url('http://169.254.169.254/'), ['169.254.169.254'])).toMatchObject({ kind: 'link-local' });
    expect(open.decide(url('http://0.0.0.0:8080/'), ['0.0.0.0'])).toMatchObject({ kind: 'unspecified' });
  });

  it('admits addresses inside an allowed range and nothing next to it', () => {
    const ranged = policy({ allow: ['10.1.0.0/16'] });
    expect(ranged.decide(url('http://svc.internal/'), ['10.1.2.3']).allowed).toBe(true);
    expect(ranged.decide(url('http://svc.internal/'), ['10.2.0.1']).allowed).toBe(false);
  });

  it('trusts a host named by an entry (or a subdomain of a wildcard) whatever it resolves to', () => {
    const named = policy({ allow: ['mcp.internal', '*.corp.example'] });
    expect(named.decide(url('http://MCP.internal./x'), ['10.0.0.1']).allowed).toBe(true);
    expect(named.decide(url('http://a.b.corp.example/'), ['192.168.1.1']).allowed).toBe(true);
    expect(named.decide(url('http://corp.example/'), ['192.168.1.1']).allowed).toBe(false);
    expect(named.decide(url('http://mcp.internal.evil.example/'), ['10.0.0.1']).allowed).toBe(false);
  });

  it('matches a URL prefix on its scheme, host and port, and on the start of the path', () => {
    const prefixed = policy({ allow: ['http://127.0.0.1:8080/mcp'] });
    expect(prefixed.decide(url('http://127.0.0.1:8080/mcp'), ['127.0.0.1']).allowed).toBe(true);
    expect(prefixed.decide(url('http://127.0.0.1:8081/mcp'), ['127.0.0.1']).allowed).toBe(false);
    expect(prefixed.decide(url('https://127.0.0.1:8080/mcp'), ['127.0.0.1']).allowed).toBe(false);
    expect(prefixed.decide(url('http://127.0.0.1:8080/other'), ['127.0.0.1']).allowed).toBe(false);
    expect(prefixed.decide(url('http://127.0.0.1:8080@10.0.0.1/mcp'), ['10.0.0.1']).allowed).toBe(false);
  });
});

describe('tenantOutbound', () => {
  it("adds a tenant's entries to the global ones and lets its allowPrivate replace the global one", () => {
    const global = OutboundConfigSchema.parse({ allow: ['a.example'], allowPrivate: true });
    expect(tenantOutbound(global, { allow: ['b.example'], allowPrivate: false })).toEqual({
      allow: ['a.example', 'b.example'],
      allowPrivate: false,
    });
    expect(tenantOutbound(global, { allow: [] })).toEqual({ allow: ['a.example'], allowPrivate: true });
  });
});
