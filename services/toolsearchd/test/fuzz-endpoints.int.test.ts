import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { headers, JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, subject, type EndpointName } from '@toolsearch/proto';
import { cleanup, clientFor, daemonProcess, exited, tenantId, TEST_KEYS, testConfig } from './harness';

const MONITOR = fileURLToPath(new URL('./fixtures/loop-delay-monitor.mjs', import.meta.url));
/** Stands for the value a case makes hostile; its JSON form is replaced by raw text, so nesting costs nothing to build. */
const HOLE = '\u0000hole\u0000';
const HOLE_JSON = JSON.stringify(HOLE);

/**
 * A request each endpoint would take as it is, so hostile values get past the schema to the code
 * behind it. An endpoint without one is fuzzed from `{}` (every endpoint of the contract is sent).
 */
function baseRequests(session: string): Partial<Record<EndpointName, Record<string, unknown>>> {
  const tool = {
    name: 'add_note',
    description: 'Add a note.',
    inputSchema: { type: 'object', properties: { body: { type: 'object' }, tags: { type: 'array' } } },
  };
  return {
    sessionsOpen: {
      grant: { toolsets: ['notes'], allow: ['notes__*'], deny: ['*delete*'] },
      model: { contextLength: 128_000 },
      config: { defer: ['terminal'], routing: [{ when: 'note', tools: ['notes__*'], boost: 2 }] },
      coreTools: [tool],
    },
    sessionsAssemble: { format: 'anthropic' },
    sessionsSearch: { queries: ['add a note'], limit: 5 },
    sessionsDescribe: { names: ['notes__add_note'] },
    sessionsDispatch: {
      calls: [
        { id: 'c1', name: 'tool_call', arguments: { calls: [{ name: 'notes__add_note', arguments: { body: {} } }] } },
        { id: 'c2', name: 'tool_search', arguments: { queries: ['note'] } },
        { id: 'c3', name: 'notes__add_note', arguments: '{"body":{}}' },
      ],
    },
    subagentsSpawn: { parent: session, role: 'subagent', grant: { toolsets: ['notes'] }, task: { goal: 'notes' } },
    toolsetsPut: { toolset: { id: 'fuzzed', kind: 'plugin', tools: [tool] } },
    toolsetsDelete: { id: 'fuzzed' },
    mcpAttach: { name: 'fuzzed', transport: { type: 'stdio', command: 'not-allowed' } },
    mcpDetach: { name: 'fuzzed' },
    approvalsList: { tool: 'notes__*', limit: 10 },
    approvalsDecide: { decision: 'deny', tool: 'notes__add_note', digest: '0'.repeat(64), wait_ms: 0 },
    sessionsList: { limit: 10 },
    auditRecent: { limit: 10, session },
  };
}

/** Every place in a value a hostile one can go: the root, each object key and each array item. */
function pathsOf(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  const paths = [path];
  if (Array.isArray(value)) value.forEach((item, index) => paths.push(...pathsOf(item, [...path, index])));
  else if (typeof value === 'object' && value !== null)
    for (const [key, item] of Object.entries(value)) paths.push(...pathsOf(item, [...path, key]));
  return paths;
}

/** `base` as JSON text with the value at `path` (or a new key `extra` under it) replaced by raw `hostile` text. */
function withHostile(base: unknown, path: (string | number)[], hostile: string, extra?: string): string {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  if (path.length === 0 && extra === undefined) return hostile;
  let parent: Record<string | number, unknown> = copy;
  const at = extra === undefined ? path.slice(0, -1) : path;
  for (const key of at) parent = parent[key] as Record<string | number, unknown>;
  if (extra !== undefined && (typeof parent !== 'object' || parent === null || Array.isArray(parent))) return hostile;
  parent[extra ?? (path[path.length - 1] as string | number)] = HOLE;
  return JSON.stringify(copy).replace(HOLE_JSON, () => hostile);
}

const ODD = ['\ud800', '\udfff', '\u202e', '\u200f', '\u200b', '\ufeff', '\u0000', '\u2028', 'é', '𝕏', '"', '\\', 'a'];
const PATTERNS = [
  '(a+)+$',
  '*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b',
  '^(([a-z])+.)+[A-Z]([a-z])+$',
  '(.*a){25}',
  '(?:a|a)*$',
  `${'a'.repeat(5000)}!`,
  '*'.repeat(200),
  '**/**/**/**',
  '[[:alpha:]',
  '(?i)(?s).*',
  '\\',
  'notes__*',
];
/** A case as a failure report shows it: the hostile text cut short (it may be a megabyte). */
function describeCase(value: { name: string; path: (string | number)[]; extra?: string; hostile: string }): string {
  const { hostile } = value;
  const shown =
    hostile.length > 120 ? `${hostile.slice(0, 80)}…(${hostile.length} chars)…${hostile.slice(-20)}` : hostile;
  return JSON.stringify({ ...value, hostile: shown });
}

const nestedArrays = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedObjects = (levels: number) => `${'{"a":'.repeat(levels)}null${'}'.repeat(levels)}`;

/** Raw JSON text (or not quite JSON) of a hostile value, up to about `room` bytes. */
function hostileText(room: number): fc.Arbitrary<string> {
  const levels = fc.integer({ min: 60, max: 50_000 });
  const huge = fc
    .tuple(fc.constantFrom(...ODD), fc.double({ min: 0.3, max: 0.95, noNaN: true }))
    .map(([unit, share]) => {
      const escaped = JSON.stringify(unit).length - 2;
      return JSON.stringify(unit.repeat(Math.floor((room * share) / escaped)));
    });
  return fc.oneof(
    { arbitrary: levels.map(nestedArrays), weight: 2 },
    { arbitrary: levels.map(nestedObjects), weight: 2 },
    { arbitrary: levels.map((n) => `${'[{"a":'.repeat(n)}1${'}]'.repeat(n)}`), weight: 1 },
    // Nesting inside a string: the bridge parses arguments given as JSON text.
    { arbitrary: levels.map((n) => JSON.stringify(nestedArrays(n))), weight: 2 },
    { arbitrary: huge, weight: 6 },
    { arbitrary: huge.map((text) => `[${text}]`), weight: 2 },
    {
      arbitrary: fc.string({ unit: fc.constantFrom(...ODD), maxLength: 300 }).map((text) => JSON.stringify(text)),
      weight: 3,
    },
    { arbitrary: fc.constantFrom(...PATTERNS).map((pattern) => JSON.stringify(pattern)), weight: 3 },
    { arbitrary: fc.constantFrom(...PATTERNS).map((pattern) => JSON.stringify([pattern, pattern])), weight: 1 },
    {
      arbitrary: fc.constantFrom('1e308', '-0', '1e-400', '9007199254740993', 'NaN', 'true', 'null', '{}', '"'),
      weight: 1,
    },
    { arbitrary: fc.json({ depthSize: 'small' }), weight: 1 },
  );
}

/** Runs `call`, and again every 200 ms (at most 25 times) while the tenant's quota refuses it. */
async function afterQuota<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      if ((error as { code?: string }).code !== 'QUOTA_EXCEEDED' || attempt >= 25) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

describe('every endpoint under hostile payloads, in a daemon process', () => {
  const config = testConfig({ dispatch: { timeoutMs: 500, retries: 0 } });
  const dir = mkdtempSync(join(tmpdir(), 'toolsearchd-fuzz-'));
  const configPath = join(dir, 'config.json');
  const delays = join(dir, 'loop-delay.jsonl');
  writeFileSync(configPath, JSON.stringify({ ...config, log: { level: 'info' } }));
  const output: string[] = [];
  let daemon: ChildProcess | undefined;
  beforeAll(async () => {
    daemon = await daemonProcess(configPath, {
      output,
      env: {
        NODE_OPTIONS: `${process.env['NODE_OPTIONS'] ?? ''} --import=${MONITOR}`.trim(),
        TOOLSEARCH_LOOP_DELAY_FILE: delays,
      },
    });
  }, 30_000);
  afterAll(async () => {
    daemon?.kill('SIGKILL');
    if (daemon !== undefined) await exited(daemon);
    await cleanup(config);
  });

  it('never answers INTERNAL, never crashes, never holds its event loop over 100 ms', async () => {
    const tenant = tenantId('fuzz');
    const { nc, client } = await clientFor(tenant);
    try {
      // What the base requests name: the session's toolset, and one for toolsets.delete to remove.
      for (const id of ['notes', 'fuzzed'])
        await client.putToolset({ id, kind: 'plugin', tools: [{ name: 'add_note', description: 'Add a note.' }] });
      const { session } = await client.openSession({ grant: { toolsets: ['notes'] }, model: { contextLength: 0 } });
      const bases = baseRequests(session.id);
      const auth = headers();
      auth.set('Authorization', `Bearer ${TEST_KEYS.test}`);
      const room = Math.min(config.limits.maxPayloadBytes, nc.info?.max_payload ?? Infinity) - 4096;
      const codec = JSONCodec<{ ok?: unknown; error?: { code?: unknown } }>();
      const names = Object.keys(ENDPOINTS) as EndpointName[];
      const cases = fc.constantFrom(...names).chain((name) => {
        const base = bases[name] ?? {};
        return fc
          .record({
            name: fc.constant(name),
            path: fc.constantFrom(...pathsOf(base)),
            extra: fc.option(fc.constantFrom('__proto__', 'constructor', 'x', '\u202e', ''), { nil: undefined }),
            hostile: hostileText(room),
          })
          .map((value) => ({ ...value, [fc.toStringMethod]: () => describeCase(value) }));
      });
      // One-time costs are not a tenant blocking others: load both encodings' rank tables and run
      // every kind of request once before the measured part starts.
      for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
        const warm = await client.openSession({
          grant: { toolsets: ['notes'] },
          model: { contextLength: 128_000, encoding },
        });
        await client.assemble(warm.session.id, 'anthropic');
        await client.search(warm.session.id, ['warm up the index']);
        await client.closeSession(warm.session.id);
      }
      const started = Date.now();
      let answered = 0;
      await fc.assert(
        fc.asyncProperty(cases, async ({ name, path, extra, hostile }) => {
          const text = withHostile(bases[name] ?? {}, path, hostile, extra);
          const data = new TextEncoder().encode(text);
          // Past the server's max_payload the client refuses to send: that is not the daemon's to answer.
          if (data.length > (nc.info?.max_payload ?? Infinity) - 1024) return;
          // Closing the session would leave nothing to aim the rest at: close aims at a missing one.
          const target = name === 'sessionsClose' ? 's-nonexistentnonexistent0' : session.id;
          const reply = codec.decode(
            (
              await nc.request(subject(ENDPOINTS[name].template, { tenant, session: target, id: 'a1' }), data, {
                timeout: 5000,
                headers: auth,
              })
            ).data,
          );
          answered += 1;
          const where = `${name}: ${text.slice(0, 200)}`;
          expect(typeof reply.ok, where).toBe('boolean');
          if (reply.ok === false) expect(reply.error?.code, where).toMatch(/^[A-Z_]+$/);
          expect(JSON.stringify(reply).slice(0, 2000), where).not.toContain('"INTERNAL"');
        }),
        // TOOLSEARCH_FUZZ_SEED / _RUNS explore further by hand; the suite runs one fixed, bounded sample.
        {
          seed: Number(process.env['TOOLSEARCH_FUZZ_SEED'] ?? 20_261_217),
          numRuns: Number(process.env['TOOLSEARCH_FUZZ_RUNS'] ?? 300),
          endOnFailure: true,
        },
      );
      const finished = Date.now();
      expect(answered).toBeGreaterThan(Number(process.env['TOOLSEARCH_FUZZ_RUNS'] ?? 300) * 0.8);
      // Still alive and serving.
      expect(daemon?.exitCode).toBeNull();
      // The burst may have spent this second's requestsPerSecond quota (a refusal is an answer
      // too): ask again once the second has passed, for at most a few seconds.
      expect((await afterQuota(() => client.assemble(session.id))).ok).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 250));
      const windows = readFileSync(delays, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { at: number; maxMs: number; cpuMs: number })
        .filter((window) => window.at >= started && window.at <= finished + 200);
      expect(windows.length).toBeGreaterThan(10);
      // Blocked: late by that much AND busy that long. A window late only because other processes
      // had the cores (two cores, shared with the rest of the suite) used little CPU itself.
      const blocked = Math.max(...windows.map((window) => Math.min(window.maxMs, window.cpuMs)));
      const slow = windows.filter((window) => window.maxMs > 50);
      expect(blocked, `windows over 50 ms: ${JSON.stringify(slow)}`).toBeLessThan(100);
      expect(output.join('')).not.toContain('"request failed"');
    } finally {
      await nc.close();
    }
  }, 90_000);
});
