/**
 * Typo correction on unseen misspellings: for every 7th tool of the 6,685-tool union, its name's
 * words with one letter dropped from the middle of the first word of six letters or more
 * (`get_forcast`), searched with typo correction on and off: is the tool in the top 5?
 * `npx tsx libs/search/bench/typo-names.bench.ts`.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { toSearchDocument, SearchEngine, DEFAULT_RANKING } from '../src/index';
const data = resolve(process.env['TOOLSEARCH_DATA_DIR'] ?? resolve(import.meta.dirname, '../../../../shared/data'));
const catalogs = ['catalog-github-mcp-server.jsonl', 'catalog-livemcpbench.jsonl', 'catalog-toucan-smithery.jsonl'];
const parsed = parseCatalogFiles(
  catalogs.map((file) => ({ source: file, text: readFileSync(resolve(data, file), 'utf8') })),
);
if (!parsed.ok) throw 1;
const docs = buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred.map((t) => toSearchDocument(t));
const on = new SearchEngine(docs);
const off = new SearchEngine(docs, { ...DEFAULT_RANKING, correctTypos: false });
let queries = 0;
const found = { off: 0, on: 0 };
const empty = { off: 0, on: 0 };
for (let i = 0; i < docs.length; i += 7) {
  const words = (docs[i]?.originalName ?? '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
  const at = words.findIndex((word) => word.length >= 6);
  const word = words[at];
  if (word === undefined) continue;
  const middle = Math.floor(word.length / 2);
  words[at] = word.slice(0, middle) + word.slice(middle + 1);
  const query = words.join(' ');
  queries += 1;
  for (const [mode, engine] of [
    ['on', on],
    ['off', off],
  ] as const) {
    const hits = engine.search(query, 5);
    if (hits.some((hit) => hit.index === i)) found[mode] += 1;
    if (hits.length === 0) empty[mode] += 1;
  }
}
console.log(
  `${queries} name queries with one letter dropped from a long word: own tool in top 5 ${found.off} → ${found.on} (typos off → on); empty ${empty.off} → ${empty.on}`,
);
