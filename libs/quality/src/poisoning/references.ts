import { poisonFinding, type PoisonFinding } from './poison-codes';
import type { TextField } from './text-fields';

const URL_PREFIXES = ['https://', 'http://', 'ftp://', 'www.'];
const MAX_URLS = 16;

function isHostChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2d ||
    code === 0x2e ||
    code > 0x7f
  );
}

/** Whether `host` is an allowed host or a subdomain of one. */
export function hostAllowed(host: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((allowed) => {
    const bare = allowed.toLowerCase().replace(/^\*\./, '');
    return host === bare || host.endsWith(`.${bare}`);
  });
}

/**
 * Links to hosts in a text field. A link is where a description can send the model for more
 * "instructions", or where a tool argument can carry data out; a host on the allow-list passes.
 * The host is read by a plain character scan after the scheme.
 */
export function scanUrls(field: TextField, allowedHosts: readonly string[]): PoisonFinding[] {
  const text = field.text;
  // Native searches for the two markers first: most fields have neither.
  if (text.indexOf('://') < 0 && text.indexOf('www.') < 0 && text.indexOf('WWW.') < 0) return [];
  const lower = text.toLowerCase();
  if (lower.length !== text.length) return [];
  const findings: PoisonFinding[] = [];
  for (const prefix of URL_PREFIXES) {
    let at = lower.indexOf(prefix);
    while (at >= 0 && findings.length < MAX_URLS) {
      const hostStart = at + prefix.length;
      let end = hostStart;
      while (end < lower.length && end - hostStart < 253 && isHostChar(lower.charCodeAt(end))) end += 1;
      let hostEnd = end;
      while (hostEnd > hostStart && lower.charCodeAt(hostEnd - 1) === 0x2e) hostEnd -= 1;
      const host = lower.slice(prefix === 'www.' ? at : hostStart, hostEnd);
      const counted = prefix !== 'www.' || at < 3 || lower.slice(at - 3, at) !== '://';
      if (counted && host.includes('.') && !hostAllowed(host, allowedHosts)) {
        findings.push(poisonFinding('URL_HOST', field.path, { start: at, end }, text.slice(at, end)));
      }
      at = lower.indexOf(prefix, end);
    }
  }
  return findings;
}

function isNameChar(code: number): boolean {
  return (
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x5f ||
    code === 0x2d
  );
}

/**
 * Namespaced tool names (`server__tool`) of another server in a text field. Found by a scan from
 * each `__` outwards over name characters. Python dunders (`__init__`) and names of the tool's
 * own server are not references. With `knownServers`, only those servers count.
 */
export function scanOtherServerTools(
  field: TextField,
  ownServer: string | undefined,
  knownServers: Pick<ReadonlySet<string>, 'has'> | undefined,
): PoisonFinding[] {
  const text = field.text;
  const findings: PoisonFinding[] = [];
  let at = text.indexOf('__');
  while (at >= 0 && findings.length < MAX_URLS) {
    let start = at;
    while (start > 0 && isNameChar(text.charCodeAt(start - 1))) start -= 1;
    let end = at + 2;
    while (end < text.length && isNameChar(text.charCodeAt(end))) end += 1;
    const server = text.slice(start, at);
    const tool = text.slice(at + 2, end).replace(/^_+/, '');
    const plausible =
      server.length >= 2 &&
      !server.startsWith('_') &&
      !server.endsWith('_') &&
      tool.length >= 2 &&
      !tool.endsWith('__');
    const lowerServer = server.toLowerCase();
    if (
      plausible &&
      lowerServer !== ownServer?.toLowerCase() &&
      (knownServers === undefined || knownServers.has(lowerServer))
    ) {
      findings.push(poisonFinding('OTHER_SERVER_TOOL', field.path, { start, end }, text.slice(start, end)));
    }
    at = text.indexOf('__', end);
  }
  return findings;
}
