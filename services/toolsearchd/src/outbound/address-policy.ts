import { BlockList, isIP } from 'node:net';

/** What an address is, for the outbound policy: only `public` is reachable by default. */
export const AddressKind = {
  public: 'public',
  loopback: 'loopback',
  private: 'private',
  linkLocal: 'link-local',
  unspecified: 'unspecified',
  multicast: 'multicast',
  reserved: 'reserved',
} as const;
export type AddressKind = (typeof AddressKind)[keyof typeof AddressKind];

/**
 * Ranges by kind, checked in order (`::` and `::1` before the IPv4-compatible `::/96`). A BlockList
 * also matches IPv4-mapped IPv6 (`::ffff:127.0.0.1`) against the IPv4 ranges.
 */
const RANGES: readonly (readonly [AddressKind, string, number])[] = [
  [AddressKind.unspecified, '0.0.0.0', 8],
  [AddressKind.loopback, '127.0.0.0', 8],
  [AddressKind.private, '10.0.0.0', 8],
  [AddressKind.private, '172.16.0.0', 12],
  [AddressKind.private, '192.168.0.0', 16],
  [AddressKind.private, '100.64.0.0', 10],
  [AddressKind.linkLocal, '169.254.0.0', 16],
  [AddressKind.multicast, '224.0.0.0', 4],
  [AddressKind.reserved, '240.0.0.0', 4],
  [AddressKind.reserved, '192.0.0.0', 24],
  [AddressKind.reserved, '198.18.0.0', 15],
  [AddressKind.unspecified, '::', 128],
  [AddressKind.loopback, '::1', 128],
  [AddressKind.reserved, '::', 96],
  [AddressKind.private, 'fc00::', 7],
  [AddressKind.private, 'fec0::', 10],
  [AddressKind.private, '64:ff9b:1::', 48],
  [AddressKind.linkLocal, 'fe80::', 10],
  [AddressKind.multicast, 'ff00::', 8],
];
const LISTS: readonly (readonly [AddressKind, BlockList])[] = RANGES.map(([kind, network, prefix]) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, isIP(network) === 4 ? 'ipv4' : 'ipv6');
  return [kind, list] as const;
});

/** The 8 groups of an IPv6 address (a trailing dotted quad included). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const quad = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (quad) {
    const [a, b, c, d] = quad.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, quad.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((group) => parseInt(group, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address leads to, if it is one. */
function embeddedIpv4(address: string): string | undefined {
  const groups = ipv6Groups(address);
  const quad = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0))
    return quad(groups[6] ?? 0, groups[7] ?? 0);
  if (groups[0] === 0x2002) return quad(groups[1] ?? 0, groups[2] ?? 0);
  return undefined;
}

/** The kind of an IP address; anything that is not one counts as reserved. */
export function addressKind(address: string): AddressKind {
  const family = isIP(address);
  if (family === 0) return AddressKind.reserved;
  for (const [kind, list] of LISTS) if (list.check(address, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  const embedded = family === 6 ? embeddedIpv4(address) : undefined;
  return embedded === undefined ? AddressKind.public : addressKind(embedded);
}

/** A URL's host as names and addresses are compared: lower case, no brackets, no trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '')
    .toLowerCase();
}

type AllowEntry =
  | { readonly type: 'host'; readonly host: string }
  | { readonly type: 'subdomains'; readonly suffix: string }
  | { readonly type: 'addresses'; readonly list: BlockList }
  | { readonly type: 'url'; readonly origin: string; readonly path: string };

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/;

/** An allow entry as the policy matches it, or undefined when it is none of the forms it may take. */
export function parseAllowEntry(entry: string): AllowEntry | undefined {
  if (entry.includes('://')) {
    if (!URL.canParse(entry)) return undefined;
    const url = new URL(entry);
    if (!isWebScheme(url) || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '')
      return undefined;
    return { type: 'url', origin: url.origin, path: url.pathname };
  }
  const [network = '', prefix, ...rest] = entry.replace(/^\[(.*)\]$/, '$1').split('/');
  const family = isIP(network);
  if (family !== 0 && rest.length === 0) {
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix);
    if (!/^\d{1,3}$/.test(prefix ?? '0') || bits > (family === 4 ? 32 : 128)) return undefined;
    const list = new BlockList();
    list.addSubnet(network, bits, family === 4 ? 'ipv4' : 'ipv6');
    return { type: 'addresses', list };
  }
  const name = entry.toLowerCase().replace(/\.$/, '');
  if (name.startsWith('*.') && HOST_NAME.test(name.slice(2))) return { type: 'subdomains', suffix: name.slice(1) };
  return HOST_NAME.test(name) ? { type: 'host', host: name } : undefined;
}

function isWebScheme(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/** Why the policy refused a URL (for the operator's log; the tenant's message is the same for each address kind). */
export type OutboundDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly rule: 'scheme' }
  | { readonly allowed: false; readonly rule: 'address'; readonly kind: AddressKind | 'unresolved' };

/**
 * The outbound policy of one tenant (pure: addresses come resolved). A URL passes when its scheme is
 * http(s) and either an allow entry names its host or prefix, or every address it resolves to is
 * public, admitted by `allowPrivate` (loopback, private) or inside an allowed address range.
 */
export class OutboundPolicy {
  readonly #entries: readonly AllowEntry[];
  readonly #allowPrivate: boolean;

  constructor(config: { readonly allow: readonly string[]; readonly allowPrivate: boolean }) {
    this.#entries = config.allow.flatMap((entry) => parseAllowEntry(entry) ?? []);
    this.#allowPrivate = config.allowPrivate;
  }

  /** Whether the URL's scheme may be used at all (http and https only; checked before resolving). */
  allowsScheme(url: URL): boolean {
    return isWebScheme(url);
  }

  /** Whether an allow entry names this URL's host or a prefix of it (its addresses are then not checked). */
  trusts(url: URL): boolean {
    const host = hostOf(url);
    return this.#entries.some((entry) => {
      if (entry.type === 'host') return entry.host === host;
      if (entry.type === 'subdomains') return host.endsWith(entry.suffix);
      if (entry.type === 'url') return url.origin === entry.origin && url.pathname.startsWith(entry.path);
      return false;
    });
  }

  /** The decision for `url`, given every address its host resolved to (none: it did not resolve). */
  decide(url: URL, addresses: readonly string[]): OutboundDecision {
    if (!isWebScheme(url)) return { allowed: false, rule: 'scheme' };
    if (this.trusts(url)) return { allowed: true };
    if (addresses.length === 0) return { allowed: false, rule: 'address', kind: 'unresolved' };
    for (const address of addresses) {
      const kind = this.#refusedKind(address);
      if (kind !== undefined) return { allowed: false, rule: 'address', kind };
    }
    return { allowed: true };
  }

  #refusedKind(address: string): AddressKind | undefined {
    const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (this.#entries.some((entry) => entry.type === 'addresses' && entry.list.check(address, family)))
      return undefined;
    const kind = addressKind(address);
    if (kind === AddressKind.public) return undefined;
    if (this.#allowPrivate && (kind === AddressKind.loopback || kind === AddressKind.private)) return undefined;
    return kind;
  }
}
