import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { nameSkeletons, scanToolDefinition, type PoisonFinding, type ScannableTool } from '../src/index';

interface PoisonedCase {
  readonly id: string;
  readonly technique: string;
  readonly lang: string;
  readonly server: string;
  readonly tool: ScannableTool;
}
interface CleanCase {
  readonly id: string;
  readonly why: string;
  readonly server: string;
  readonly tool: ScannableTool;
}

function readJsonl<T>(name: string): T[] {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as T);
}

const poisoned = readJsonl<PoisonedCase>('poisoned.jsonl');
const clean = readJsonl<CleanCase>('clean.jsonl');
// The catalog the look-alike names imitate, and the servers a `name__tool` may point at.
const catalogNames = ['read_file', 'send_email', 'list_repos', 'get_weather'];
const knownServers = new Set(['github', 'slack', 'filesystem', 'good', 'evil', 'notifier', 'relay', 'bridgejp']);
const scan = (server: string, tool: ScannableTool): PoisonFinding[] =>
  scanToolDefinition(tool, {
    server,
    knownServers,
    nameSkeletons: nameSkeletons([...catalogNames, tool.name]),
    allowedHosts: ['stripe.com'],
  });

describe('poisoning corpus', () => {
  it('detects at least 95 % of the poisoned definitions at high or medium severity', () => {
    const missed = poisoned.filter(
      (entry) => !scan(entry.server, entry.tool).some((finding) => finding.severity !== 'low'),
    );
    const rate = 1 - missed.length / poisoned.length;
    console.log(
      `poisoned: ${poisoned.length}, detected ${poisoned.length - missed.length} (${(rate * 100).toFixed(1)} %)` +
        (missed.length > 0 ? `; missed ${missed.map((entry) => `${entry.id} (${entry.technique})`).join(', ')}` : ''),
    );
    expect(poisoned.length).toBeGreaterThanOrEqual(40);
    expect(rate).toBeGreaterThanOrEqual(0.95);
  });

  it('covers every technique in English, Japanese and Chinese', () => {
    expect(new Set(poisoned.map((entry) => entry.lang))).toEqual(new Set(['en', 'ja', 'zh']));
    expect(new Set(poisoned.map((entry) => entry.technique)).size).toBeGreaterThanOrEqual(10);
  });

  it('flags no clean look-alike definition high', () => {
    const flagged = clean
      .map((entry) => ({ entry, high: scan(entry.server, entry.tool).filter((item) => item.severity === 'high') }))
      .filter(({ high }) => high.length > 0)
      .map(({ entry, high }) => `${entry.id} (${entry.why}): ${high.map((item) => item.code).join(', ')}`);
    expect(flagged).toEqual([]);
  });

  it.each([
    ['p01', 'IGNORE_INSTRUCTIONS'],
    ['p07', 'CONCEAL_FROM_USER'],
    ['p13', 'SECRET_FILE'],
    ['p27', 'OTHER_SERVER_TOOL'],
    ['p30', 'INVISIBLE_TAGS'],
    ['p31', 'BIDI_CONTROL'],
    ['p41', 'HOMOGLYPH_NAME'],
    ['p46', 'OVERSIZED_TEXT'],
  ])('reports %s with %s', (id, code) => {
    const entry = poisoned.find((item) => item.id === id);
    expect(entry).toBeDefined();
    if (entry === undefined) return;
    expect(scan(entry.server, entry.tool).map((finding) => finding.code)).toContain(code);
  });
});
