import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { daemonFixture, eventually, tenantId } from './harness';

// The daemon's search engines encode their tools for the request encoder in the background
// (createBridgeSession's `background`); a doubtful search then merges the encoder's nearest tools.
// A catalog of 100 tools or more has the encoder; this one has 122.
const SERVICES = [
  'invoice',
  'calendar',
  'github',
  'slack',
  'translate',
  'pdf',
  'email',
  'maps',
  'stock',
  'notes',
  'music',
  'recipes',
];
const obj = { type: 'object', properties: {} };
const toolsets = [
  {
    id: 'weather',
    kind: 'plugin',
    label: 'weather',
    tools: [
      {
        name: 'get_forecast',
        description: 'Weather forecast for a city: temperature, rain and wind for the coming days.',
        inputSchema: obj,
      },
    ],
  },
  {
    id: 'clock',
    kind: 'plugin',
    label: 'clock',
    tools: [{ name: 'convert_time', description: 'Convert a time from one time zone to another.', inputSchema: obj }],
  },
  ...SERVICES.map((service) => ({
    id: service,
    kind: 'plugin',
    label: service,
    tools: Array.from({ length: 10 }, (_, i) => ({
      name: `${service}_action_${i}`,
      description: `Manage ${service} records: create, list, update or delete ${service} item ${i}.`,
      inputSchema: obj,
    })),
  })),
];

describe('the request encoder in the daemon', () => {
  const fixture = daemonFixture();
  const TENANT = tenantId('encoder');
  beforeAll(async () => {
    await fixture.start();
  }, 30_000);
  afterAll(() => fixture.stop());

  it('merges its nearest tools into a doubtful search once the engine has encoded its tools, and not into a confident one', async () => {
    const client = await fixture.client(TENANT);
    for (const toolset of toolsets) await client.putToolset(toolset);
    const { session } = await client.openSession({
      grant: { toolsets: toolsets.map((toolset) => toolset.id) },
      model: { contextLength: 8_000 },
    });
    const reasons = async (query: string) => {
      const explained = await client.search(session.id, [query], 5, { explain: true });
      const matches = (explained.explain?.[0]?.matches ?? []) as { reason: string }[];
      return matches.map((match) => match.reason);
    };
    // "umbrella" and "days": a doubtful answer (one weak match) that the encoder adds to.
    await eventually(async () => expect(await reasons('umbrella city days')).toContain('encoder'));
    expect(await reasons('city rain forecast')).not.toContain('encoder');
  }, 60_000);
});
