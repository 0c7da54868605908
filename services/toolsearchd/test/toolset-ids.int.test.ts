import { JSONCodec } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXEC, subject, toolsetSubjectToken, type ExecRequest } from '@toolsearch/proto';
import { daemonFixture, tenantId } from './harness';

const codec = JSONCodec<unknown>();
const obj = { type: 'object', properties: {} };

describe('toolset ids with a dot', () => {
  const fixture = daemonFixture();
  const tenant = tenantId('dots');

  beforeAll(() => fixture.start());
  afterAll(() => fixture.stop());

  it('run: the daemon asks exec on the encoded id, where the toolset owner serves it', async () => {
    expect(toolsetSubjectToken('acme.tools.v2')).toBe('acme%2Etools%2Ev2');
    expect(subject(EXEC.template, { tenant, toolset: 'acme.tools' })).toBe(`toolsearch.v1.${tenant}.exec.acme%2Etools`);
    const client = await fixture.client(tenant);
    const nc = await fixture.connection();
    const seen: string[] = [];
    nc.subscribe(`toolsearch.v1.${tenant}.exec.${toolsetSubjectToken('acme.tools')}`, {
      callback: (error, message) => {
        if (error) return;
        const request = codec.decode(message.data) as ExecRequest;
        seen.push(request.tool);
        message.respond(codec.encode({ ok: true, data: { ran: request.tool } }));
      },
    });
    await nc.flush();
    await client.putToolset({
      id: 'acme.tools',
      kind: 'plugin',
      label: 'acme',
      tools: [{ name: 'ping', description: 'Answer pong.', inputSchema: obj, annotations: { readOnlyHint: true } }],
    });
    const { session } = await client.openSession({
      grant: { toolsets: ['acme.tools'] },
      model: { contextLength: 128_000 },
    });
    const { results } = await client.dispatch(session.id, [{ id: 'c1', name: 'ping', arguments: {} }]);
    expect(results[0]).toMatchObject({ ok: true, status: 'done', data: { ran: 'ping' } });
    expect(seen).toEqual(['ping']);
  });
});
