import { headers, JSONCodec, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS, subject } from '@toolsearch/proto';
import { daemonFixture, tenantId, TEST_KEYS } from './harness';

type Reply = { ok: boolean; error?: { code: string; message: string }; results?: unknown[] };
const codec = JSONCodec<Reply>();
const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
const nestedObject = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

describe('request limits', () => {
  // Under the NATS server's own max_payload (1 MiB), so the daemon's limit is what a payload meets;
  // tools up to 640 KiB, so a reply of two large tools can be too large for NATS.
  const fixture = daemonFixture({ limits: { maxPayloadBytes: 768 * 1024, maxToolBytes: 640 * 1024 } });
  const tenant = tenantId('limits');
  let nc: NatsConnection;
  let session = '';
  const auth = headers();
  auth.set('Authorization', `Bearer ${TEST_KEYS.test}`);
  /** A raw request with the test key: `text` goes out exactly as written. */
  const ask = async (name: keyof typeof ENDPOINTS, text: string, target = session): Promise<Reply> =>
    codec.decode(
      (
        await nc.request(
          subject(ENDPOINTS[name].template, { tenant, session: target }),
          new TextEncoder().encode(text),
          {
            timeout: 10_000,
            headers: auth,
          },
        )
      ).data,
    );

  beforeAll(async () => {
    await fixture.start();
    nc = await fixture.connection();
    const client = await fixture.client(tenant);
    await client.putToolset({
      id: 'notes',
      kind: 'plugin',
      tools: [
        {
          name: 'add_note',
          description: 'Add a note.',
          inputSchema: { type: 'object', properties: { body: { type: 'object' } } },
        },
      ],
    });
    session = (await client.openSession({ grant: { toolsets: ['notes'] }, model: { contextLength: 0 } })).session.id;
  });
  afterAll(() => fixture.stop());

  it('refuses JSON nested past limits.maxJsonDepth with BAD_REQUEST naming it, wherever the nesting is', async () => {
    const open = (config: string) => `{"grant":{"toolsets":[]},"model":{"contextLength":1000},"config":${config}}`;
    const schema = `{"type":"object","properties":{"a":${nestedObject(5000)}}}`;
    const cases: [keyof typeof ENDPOINTS, string][] = [
      ['sessionsOpen', open(nested(5000))],
      ['sessionsOpen', open(nestedObject(100_000))],
      ['sessionsSearch', `{"queries":${nested(20_000)}}`],
      ['sessionsDispatch', `{"calls":[{"id":"c","name":"tool_call","arguments":${nested(5000)}}]}`],
      ['toolsetsPut', `{"toolset":{"id":"deep","kind":"plugin","tools":[{"name":"t","inputSchema":${schema}}]}}`],
      ['approvalsList', nested(200_000)],
    ];
    for (const [name, text] of cases) {
      const started = performance.now();
      const reply = await ask(name, text);
      expect(reply, name).toMatchObject({ ok: false, error: { code: 'BAD_REQUEST' } });
      expect(reply.error?.message).toContain('limits.maxJsonDepth');
      expect(performance.now() - started).toBeLessThan(1000);
    }
    // Within the bound, the same shapes are answered normally.
    expect(await ask('sessionsOpen', open(nested(32)))).toMatchObject({ ok: true });
  });

  it('bounds JSON text inside arguments the same way: a call result, never INTERNAL', async () => {
    const deepText = JSON.stringify(nested(50_000));
    const reply = await ask(
      'sessionsDispatch',
      `{"calls":[{"id":"c1","name":"tool_call","arguments":${deepText}},` +
        `{"id":"c2","name":"tool_call","arguments":{"calls":[{"name":"notes__add_note","arguments":${deepText}}]}},` +
        `{"id":"c3","name":"tool_call","arguments":{"calls":[{"name":"notes__add_note","arguments":{"body":${JSON.stringify(nestedObject(50_000))}}}]}}]}`,
    );
    expect(reply.ok).toBe(true);
    const codes = JSON.stringify(reply.results);
    expect(codes).not.toContain('INTERNAL');
    expect(codes).toMatch(/BAD_ARGUMENTS|INVALID_ARGUMENTS/);
    expect(codes).toContain('64 levels');
  });

  it("refuses a toolset whose stored form exceeds the NATS server's max_payload with PAYLOAD_TOO_LARGE and its size", async () => {
    // 660 KB on the wire; with each tool's defaults filled in it is about 1.36 MB stored.
    const tools = Array.from({ length: 9000 }, (_, i) => ({ name: `t${i}`, description: 'd'.repeat(40) }));
    const text = JSON.stringify({ toolset: { id: 'huge', kind: 'plugin', tools } });
    expect(text.length).toBeLessThan(fixture.config.limits.maxPayloadBytes);
    const reply = await ask('toolsetsPut', text);
    expect(reply).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(reply.error?.message).toMatch(/'huge' is \d+ bytes once stored/);
    expect(reply.error?.message).toContain('max_payload');
    const listed = await (await fixture.client(tenant)).listToolsets();
    expect(listed.toolsets.map((toolset) => toolset.id)).not.toContain('huge');
  });

  it('refuses a toolset with more tools than limits.maxToolsPerToolset', async () => {
    const cap = fixture.config.limits.maxToolsPerToolset;
    const tools = Array.from({ length: cap + 1 }, (_, i) => ({ name: `t${i}` }));
    const reply = await ask('toolsetsPut', JSON.stringify({ toolset: { id: 'many', kind: 'plugin', tools } }));
    expect(reply).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(reply.error?.message).toContain(`at most ${cap} (limits.maxToolsPerToolset)`);
  });

  it("answers PAYLOAD_TOO_LARGE when the reply itself would exceed the server's max_payload", async () => {
    const client = await fixture.client(tenant);
    // Two tools of 600 KB each (each toolset fits a KV entry); describing both at once cannot fit a reply.
    for (const id of ['mcp-big-a', 'mcp-big-b'])
      await client.putToolset({
        id,
        kind: 'mcp',
        tools: [
          {
            name: 'wide',
            description: 'Wide.',
            inputSchema: { type: 'object', properties: { v: { type: 'string', enum: ['w'.repeat(600_000)] } } },
          },
        ],
      });
    const opened = await client.openSession({
      grant: { toolsets: ['mcp-big-a', 'mcp-big-b'] },
      model: { contextLength: 128_000 },
    });
    const reply = await ask(
      'sessionsDescribe',
      JSON.stringify({ names: ['big-a__wide', 'big-b__wide'] }),
      opened.session.id,
    );
    expect(reply).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(reply.error?.message).toMatch(/the reply would be \d+ bytes/);
    // One at a time fits.
    expect(await ask('sessionsDescribe', JSON.stringify({ names: ['big-a__wide'] }), opened.session.id)).toMatchObject({
      ok: true,
    });
  });

  it("refuses one tool over limits.maxToolBytes, in a toolset or among a session's core tools", async () => {
    const max = fixture.config.limits.maxToolBytes;
    const huge = { name: 'huge', description: 'Huge.', inputSchema: { type: 'object', title: 'x'.repeat(max) } };
    const put = await ask(
      'toolsetsPut',
      JSON.stringify({ toolset: { id: 'one-huge', kind: 'plugin', tools: [huge] } }),
    );
    expect(put).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(put.error?.message).toMatch(
      new RegExp(`tool 'huge' is \\d+ bytes as JSON; .* at most ${max} \\(limits.maxToolBytes\\)`),
    );
    const open = await ask(
      'sessionsOpen',
      JSON.stringify({ grant: { toolsets: ['notes'] }, model: { contextLength: 0 }, coreTools: [huge] }),
    );
    expect(open).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(open.error?.message).toContain('coreTools');
    // Just under the limit is accepted.
    const fits = { ...huge, inputSchema: { type: 'object', title: 'x'.repeat(max - 200) } };
    expect(
      await ask('toolsetsPut', JSON.stringify({ toolset: { id: 'one-huge', kind: 'plugin', tools: [fits] } })),
    ).toMatchObject({ ok: true });
  });

  it('names limits.maxPayloadBytes when the payload itself is too large', async () => {
    const reply = await ask('sessionsSearch', `{"queries":["${'q'.repeat(fixture.config.limits.maxPayloadBytes)}"]}`);
    expect(reply).toMatchObject({ ok: false, error: { code: 'PAYLOAD_TOO_LARGE' } });
    expect(reply.error?.message).toContain('limits.maxPayloadBytes');
  });
});
