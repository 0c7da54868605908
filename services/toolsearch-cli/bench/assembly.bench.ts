/**
 * Assembly benchmark: cold (first assembly in a fresh process, encoder already loaded) and warm
 * (the content-addressed cache answering, and a full recomputation in a warmed-up process).
 *
 *   npm run bench:assembly [-- --json] [-- --js-counter]
 *
 * `--js-counter` keeps token counting to its JavaScript path even where the native counter is
 * built (what a machine without a C++ toolchain runs).
 *
 * Needs the shared evaluation data (../shared/data, or TOOLSEARCH_DATA_DIR).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseCatalogFiles, parseToolSearchConfig, type Toolset } from '@toolsearch/catalog';
import { AssemblyCache, assembleSession } from '@toolsearch/disclosure';
import { countTokens, tokenCounter, useNativeTokenCounting } from '@toolsearch/tokens';
import {
  hasSharedData,
  SHARED_CATALOGS,
  SHARED_DATA_SKIP_REASON,
  sharedDataPath,
  type SharedCatalogName,
} from '@toolsearch/testing';

const CASES: Record<string, SharedCatalogName[]> = {
  'toucan-smithery (6,041 tools)': ['toucan'],
  'toucan both files (17,479 tools)': ['toucan', 'toucanScraped'],
};
/** Context window and listing cap per row: the defaults, and a large cap on a 1M window. */
const SETTINGS = [
  { context: 200_000, cap: 4000 },
  { context: 1_000_000, cap: 60_000 },
];
const configFor = (cap: number) => parseToolSearchConfig({ listing_max_tokens: cap }).config;

function load(names: readonly SharedCatalogName[]): Toolset[] {
  const parsed = parseCatalogFiles(
    names.map((name) => ({ source: name, text: readFileSync(sharedDataPath(SHARED_CATALOGS[name]), 'utf8') })),
  );
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.toolsets;
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** What a cold child reports. */
interface ColdResult {
  ms: number;
  counter: 'native' | 'JavaScript';
  tier: number;
  form: string;
  listing: number;
  exact: number;
  budget: number;
}

/** Child mode: load the catalog, load the encoder, then time the very first assembly. */
function coldChild(caseName: string, context: number, cap: number): void {
  const toolsets = load(CASES[caseName] ?? []);
  tokenCounter();
  const start = performance.now();
  const { result } = assembleSession({ toolsets, config: configFor(cap), contextTokens: context });
  const ms = performance.now() - start;
  const exact = result.listing === null ? 0 : countTokens(result.listing);
  const report: ColdResult = {
    ms,
    counter: tokenCounter().native ? 'native' : 'JavaScript',
    tier: result.tier,
    form: result.listing_form,
    listing: result.listing_tokens,
    exact,
    budget: result.budget_tokens,
  };
  process.stdout.write(JSON.stringify(report));
}

function main(): void {
  const [, , mode, caseName, context, cap] = process.argv;
  const jsCounter = process.argv.includes('--js-counter');
  useNativeTokenCounting(!jsCounter);
  if (mode === '--cold-child' && caseName && context && cap) return coldChild(caseName, Number(context), Number(cap));
  const json = process.argv.includes('--json');
  if (!hasSharedData()) {
    console.error(SHARED_DATA_SKIP_REASON);
    process.exitCode = 2;
    return;
  }
  const rows: Record<string, unknown>[] = [];
  const self = fileURLToPath(import.meta.url);
  for (const [caseName, names] of Object.entries(CASES)) {
    const toolsets = load(names);
    const tools = toolsets.reduce((sum, t) => sum + t.tools.length, 0);
    for (const { context, cap } of SETTINGS) {
      const colds: number[] = [];
      let info: ColdResult | undefined;
      for (let run = 0; run < 3; run += 1) {
        const child = spawnSync(
          process.execPath,
          [
            '--import',
            'tsx',
            self,
            '--cold-child',
            caseName,
            String(context),
            String(cap),
            ...(jsCounter ? ['--js-counter'] : []),
          ],
          { encoding: 'utf8' },
        );
        if (child.status !== 0) throw new Error(child.stderr);
        const parsed = JSON.parse(child.stdout) as ColdResult;
        colds.push(parsed.ms);
        info = parsed;
      }
      const config = configFor(cap);
      const cache = new AssemblyCache();
      cache.assemble({ toolsets, config, contextTokens: context });
      const warm: number[] = [];
      for (let i = 0; i < 200; i += 1) {
        const start = performance.now();
        cache.assemble({ toolsets, config, contextTokens: context });
        warm.push(performance.now() - start);
      }
      const recompute: number[] = [];
      for (let i = 0; i < 10; i += 1) {
        const start = performance.now();
        assembleSession({ toolsets, config, contextTokens: context });
        recompute.push(performance.now() - start);
      }
      warm.sort((a, b) => a - b);
      recompute.sort((a, b) => a - b);
      colds.sort((a, b) => a - b);
      rows.push({
        case: caseName,
        tools,
        context,
        listing_max_tokens: cap,
        counter: info?.counter,
        tier: info?.tier,
        listing_form: info?.form,
        listing_tokens: info?.listing,
        listing_tokens_recounted: info?.exact,
        budget_tokens: info?.budget,
        cold_ms_median: Number(percentile(colds, 50).toFixed(1)),
        warm_cached_p50_ms: Number(percentile(warm, 50).toFixed(3)),
        warm_cached_p99_ms: Number(percentile(warm, 99).toFixed(3)),
        warm_recompute_p50_ms: Number(percentile(recompute, 50).toFixed(1)),
      });
    }
  }
  if (json) console.log(JSON.stringify(rows, null, 2));
  else console.table(rows);
}

main();
