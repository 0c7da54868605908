import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JSONCodec } from 'nats';
import type { ToolsearchClient } from '@toolsearch/client';
import type { Daemon } from '../src/daemon';
import { daemonFixture, serveExec, tenantId } from './harness';

const obj = { type: 'object', properties: {} };
const reports = {
  id: 'reports',
  kind: 'plugin',
  label: 'reports',
  tools: [
    ['report_summary', 'Create a summary report of the monthly sales.'],
    ['report_export', 'Export a monthly sales report as a spreadsheet file.'],
    ['report_email', 'Send a monthly sales report to a contact by mail.'],
    ['report_archive', 'Move an old monthly sales report to the archive.'],
  ].map(([name, description]) => ({ name, description, inputSchema: obj })),
};
const QUERY = 'monthly sales report';

/** The tool names a search of `QUERY` returns, best first. */
async function ranking(client: ToolsearchClient, session: string): Promise<string[]> {
  const reply = await client.search(session, [QUERY], 4);
  return (reply.result as { results: { matches: string[] }[] }).results[0]?.matches ?? [];
}

/** A session of the tenant over the reports toolset, with the bridge on. */
async function session(client: ToolsearchClient): Promise<string> {
  const opened = await client.openSession({
    grant: { toolsets: ['reports'] },
    model: { contextLength: 200_000 },
    config: { enabled: 'on' },
  });
  return opened.session.id;
}

/** Searches as the model does (a `tool_search` turn), then calls `tool` through `tool_call`. */
async function searchThenCall(client: ToolsearchClient, id: string, tool: string) {
  const found = await client.dispatch(id, [{ id: 's', name: 'tool_search', arguments: { queries: [QUERY] } }]);
  expect(found.results[0]?.ok).toBe(true);
  return client.dispatch(id, [{ id: 'c', name: 'tool_call', arguments: { calls: [{ name: tool, arguments: {} }] } }]);
}

describe('learning from use (issue 21: tenants.<id>.learnFromUse)', () => {
  const learner = tenantId('learn');
  const neighbour = tenantId('neigh');
  const plain = tenantId('plain');
  const failing = tenantId('fail');
  const fixture = daemonFixture({
    tenants: {
      [learner]: { learnFromUse: true },
      [neighbour]: { learnFromUse: true },
      [failing]: { learnFromUse: true },
      [plain]: {},
    },
  });
  const clients = new Map<string, ToolsearchClient>();
  let before: string[] = [];
  let daemon: Daemon;

  beforeAll(async () => {
    daemon = await fixture.start();
    const nc = await fixture.connection();
    for (const tenant of [learner, neighbour, plain]) await serveExec(nc, tenant, 'reports');
    // This tenant's tools always fail.
    const codec = JSONCodec<unknown>();
    nc.subscribe(`toolsearch.v1.${failing}.exec.reports`, {
      callback: (error, message) => {
        if (!error) message.respond(codec.encode({ ok: false, error: { code: 'TOOL_ERROR', message: 'down' } }));
      },
    });
    await nc.flush();
    for (const tenant of [learner, neighbour, plain, failing]) {
      const client = await fixture.client(tenant);
      await client.putToolset(reports);
      clients.set(tenant, client);
    }
    const client = clients.get(learner) as ToolsearchClient;
    before = await ranking(client, await session(client));
    expect(before).toHaveLength(4);
  });
  afterAll(() => fixture.stop());

  it('ranks higher, for the same words, a tool the tenant called after searching them', async () => {
    const client = clients.get(learner) as ToolsearchClient;
    const chosen = before.at(-1) as string;
    // Several sessions search and call the tool search ranked last; each (search, call) counts once.
    for (let i = 0; i < 3; i += 1) {
      const id = await session(client);
      const turn = await searchThenCall(client, id, chosen);
      expect(turn.results[0]?.ok).toBe(true);
    }
    // The NATS search endpoint counts as a search too.
    const id = await session(client);
    expect((await client.search(id, [QUERY])).ok).toBe(true);
    const called = await client.dispatch(id, [
      { id: 'c', name: 'tool_call', arguments: { calls: [{ name: chosen, arguments: {} }] } },
    ]);
    expect(called.results[0]?.ok).toBe(true);

    const after = await ranking(client, await session(client));
    expect(after[0]).toBe(chosen);
    // The model's own tool_search ranks with it as well.
    const turn = await client.dispatch(await session(client), [
      { id: 's', name: 'tool_search', arguments: { queries: [QUERY], limit: 4 } },
    ]);
    const data = turn.results[0]?.data as { results: { matches: string[] }[] };
    expect(data.results[0]?.matches[0]).toBe(chosen);
  });

  it("forgets a session's last search when the session closes", async () => {
    const client = clients.get(learner) as ToolsearchClient;
    const id = await session(client);
    const remembered = daemon.searchesRemembered;
    expect((await client.search(id, [QUERY])).ok).toBe(true);
    expect(daemon.searchesRemembered).toBe(remembered + 1);
    await client.closeSession(id);
    expect(daemon.searchesRemembered).toBe(remembered);
  });

  it('changes nothing for another opted-in tenant with the same catalog', async () => {
    const client = clients.get(neighbour) as ToolsearchClient;
    expect(await ranking(client, await session(client))).toEqual(before);
  });

  it('changes nothing for a tenant that did not opt in, however it is used', async () => {
    const client = clients.get(plain) as ToolsearchClient;
    expect(await ranking(client, await session(client))).toEqual(before);
    const chosen = before.at(-1) as string;
    for (let i = 0; i < 3; i += 1) {
      const turn = await searchThenCall(client, await session(client), chosen);
      expect(turn.results[0]?.ok).toBe(true);
    }
    expect(await ranking(client, await session(client))).toEqual(before);
  });

  it('learns nothing from a call that failed', async () => {
    const client = clients.get(failing) as ToolsearchClient;
    expect(await ranking(client, await session(client))).toEqual(before);
    const chosen = before.at(-1) as string;
    for (let i = 0; i < 3; i += 1) {
      const turn = await searchThenCall(client, await session(client), chosen);
      expect(turn.results[0]?.ok).toBe(false);
    }
    expect(await ranking(client, await session(client))).toEqual(before);
  });
});
