import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSessionTools, defaultToolSearchConfig, parseCatalogFiles } from '@toolsearch/catalog';
import { parseQueryFile, type EvalQuery } from '../src/query-file';
import { toSearchDocument, type SearchDocument } from '../src/search-document';

const here = dirname(fileURLToPath(import.meta.url));

/** A query file and the catalogs it is measured on. `own: true`: the file lives in this repository. */
export interface EvalSet {
  readonly name: string;
  readonly catalogs: readonly string[];
  readonly file: string;
  readonly own?: boolean;
}

export const UNION = ['catalog-github-mcp-server.jsonl', 'catalog-livemcpbench.jsonl', 'catalog-toucan-smithery.jsonl'];
export const EVAL_SETS: readonly EvalSet[] = [
  { name: 'StableToolBench', catalogs: ['catalog-stabletoolbench.jsonl'], file: 'queries-stabletoolbench.jsonl' },
  { name: 'LiveMCPBench', catalogs: ['catalog-livemcpbench.jsonl'], file: 'queries-livemcpbench.jsonl' },
  { name: 'abstention (union)', catalogs: UNION, file: resolve(here, '../eval/abstention-queries.jsonl'), own: true },
  { name: 'answerable (union)', catalogs: UNION, file: resolve(here, '../eval/answerable-queries.jsonl'), own: true },
];

/**
 * Our no-capability requests on LiveMCPBench's 527 tools (a subset of the union, so nothing fits
 * there either): the fits read them beside the union's, so that not every negative comes from the
 * large catalog and a model learns the request rather than the catalog.
 */
export const LMB_NEGATIVES: EvalSet = {
  ...(EVAL_SETS.find((set) => set.name === 'abstention (union)') as EvalSet),
  name: 'abstention (LiveMCPBench)',
  catalogs: ['catalog-livemcpbench.jsonl'],
};

/**
 * Requests held out whole: written on 2026-12-04 and 2026-12-05 by helpers that never ran the
 * engine nor read the other query files, measured by `eval-splits.ts` (every query is test; no
 * script that fits or learns anything reads them). See `eval/README.md`: `fresh` to `fresh9` have
 * since been read request by request (they are tuning material now; `fit-example-gate.ts` reads
 * them), and so have `fresh10` and `fresh11` (twenty-second session, read in the twenty-third) and
 * `fresh13` and `fresh15` (read in the twenty-fourth session), and `fresh12`, `fresh14` and
 * `fresh16` (read in the twenty-fifth), and `fresh17` and `fresh18` (read in the twenty-sixth);
 * `fresh19` and `fresh20` (twenty-sixth session) are the unseen ones.
 */
export const HELD_OUT_SETS: readonly EvalSet[] = [
  {
    name: 'fresh20 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh20-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh20 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh20-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh19 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh19-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh19 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh19-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh18 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh18-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh18 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh18-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh17 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh17-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh17 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh17-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh16 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh16-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh16 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh16-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh15 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh15-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh15 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh15-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh14 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh14-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh14 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh14-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh12 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh12-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh12 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh12-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh13 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh13-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh13 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh13-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh11 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh11-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh11 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh11-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh10 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh10-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh10 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh10-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh9 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh9-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh9 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh9-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh8 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh8-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh8 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh8-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh7 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh7-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh7 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh7-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh6 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh6-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh6 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh6-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh5 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh5-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh5 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh5-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh4 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh4-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh4 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh4-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh3 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh3-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh3 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh3-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh2 answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh2-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh2 abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh2-abstention-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh answerable',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh-answerable-queries.jsonl'),
    own: true,
  },
  {
    name: 'fresh abstention',
    catalogs: UNION,
    file: resolve(here, '../eval/fresh-abstention-queries.jsonl'),
    own: true,
  },
];

/** The search documents and `server::name` ids of catalogs of the data directory, as sessions see them. */
export function loadCatalogDocuments(
  dataDir: string,
  catalogs: readonly string[],
): { documents: SearchDocument[]; ids: string[] } {
  const parsed = parseCatalogFiles(
    catalogs.map((file) => ({ source: file, text: readFileSync(resolve(dataDir, file), 'utf8') })),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  const tools = buildSessionTools(parsed.toolsets, defaultToolSearchConfig()).deferred;
  return {
    documents: tools.map((tool) => toSearchDocument(tool)),
    ids: tools.map((tool) => `${tool.label}::${tool.originalName}`),
  };
}

/** The documents, `server::name` ids and queries of one set. */
export function loadEvalSet(
  dataDir: string,
  set: EvalSet,
): { documents: SearchDocument[]; ids: string[]; queries: EvalQuery[] } {
  const file = set.own === true ? set.file : resolve(dataDir, set.file);
  const queries = parseQueryFile(readFileSync(file, 'utf8'));
  if (!queries.ok) throw new Error(`${file}:${queries.line}: ${queries.message}`);
  return { ...loadCatalogDocuments(dataDir, set.catalogs), queries: queries.queries };
}
