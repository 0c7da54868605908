/**
 * The cost of one routed search under the most a session config may hold (100 routing rules,
 * 32 with a `when` built to backtrack, each rule with 100 many-star tool patterns) over 202 tools
 * with 60-character names, against the same search without routing. Prints per-search times.
 *
 *   npx tsx libs/bridge/bench/routing.bench.ts
 */
import { buildSessionTools, parseToolSearchConfig, ToolsetSchema, type Toolset } from '@toolsearch/catalog';
import { BACKTRACKING_QUERIES, backtrackingRouting } from '@toolsearch/testing';
import { createBridgeSession } from '../src/index';
import { routedSearch } from '../src/routing';
import { longToolNames, manyStarPatterns } from '../test/bridge-fixture';

const obj = { type: 'object', properties: {} };
const toolsets: Toolset[] = [
  {
    id: 'long',
    kind: 'plugin',
    label: 'long',
    tools: longToolNames(200).map((name) => ({
      name,
      description: `A tool with a long name ${name}.`,
      inputSchema: obj,
    })),
  },
  {
    id: 'docs',
    kind: 'plugin',
    label: 'docs',
    tools: [
      { name: 'search_pages', description: 'Search the documentation pages.', inputSchema: obj },
      { name: 'read_page', description: 'Read one documentation page.', inputSchema: obj },
    ],
  },
].map((toolset) => ToolsetSchema.parse(toolset));
const patterns = manyStarPatterns();
const routing = backtrackingRouting(patterns);
const QUERIES = [...BACKTRACKING_QUERIES, 'read a documentation page'];

function session(rawRouting: unknown) {
  const { config } = parseToolSearchConfig({ enabled: 'on', routing: rawRouting });
  return createBridgeSession(buildSessionTools(toolsets, config), config);
}

function measure(label: string, rawRouting: unknown, rounds = 200) {
  const started = performance.now();
  const built = session(rawRouting);
  const setup = performance.now() - started;
  const first: number[] = [];
  const times: number[] = [];
  for (let round = 0; round < rounds; round++)
    for (const query of QUERIES) {
      const t = performance.now();
      routedSearch(built, query, 10);
      (round === 0 ? first : times).push(performance.now() - t);
    }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]?.toFixed(3);
  console.log(
    `${label}: session ${setup.toFixed(1)} ms; first search of each query ${first.map((ms) => ms.toFixed(1)).join(' / ')} ms; ` +
      `then p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms over ${times.length} searches`,
  );
}

measure('no routing', []);
measure('hostile routing (100 rules x 100 many-star patterns, 32 backtracking whens)', routing);
