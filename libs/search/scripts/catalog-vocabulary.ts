/**
 * Lists the public catalogs' words by document frequency over their tool names and descriptions,
 * one `word<TAB>tools` line each (a Snowball stem shown by its commonest spelling), most frequent
 * first: the word list `src/data/cjk-lexicon.ts` was rendered from (its first 2,600 lines, then
 * lines 2,601 – 6,000 with at least two tools). Reads catalogs only, never a query.
 * `npx tsx libs/search/scripts/catalog-vocabulary.ts [data dir] > words.tsv`.
 */
import { stem } from '../src/analyzer';
import { PUBLIC_CATALOGS, publicDataDir, readJsonl, type CatalogTool } from './public-catalogs';

const LIMIT = 6000;
/** Words that say nothing a request would ask for, left out of the listing. */
const SKIPPED = new Set(
  (
    'a an the and or of to in on for with by from at as is are be this that it its into via any all can will your ' +
    'you if not use used using tool tools returns return given specified specific optional default e g id ids true ' +
    'false null string number type value values list based provides provide etc also more than when which'
  ).split(' '),
);

const dataDir = publicDataDir();
const tools = new Map<string, number>();
const spellings = new Map<string, Map<string, number>>();
for (const file of PUBLIC_CATALOGS)
  for (const tool of readJsonl<CatalogTool>(dataDir, file)) {
    const text = `${tool.name.replace(/[_\-.]/g, ' ')} ${tool.description ?? ''}`
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .toLowerCase();
    const seen = new Set<string>();
    for (const word of text.match(/[a-z]{3,}/g) ?? []) {
      if (SKIPPED.has(word)) continue;
      const term = stem(word);
      const forms = spellings.get(term) ?? new Map<string, number>();
      forms.set(word, (forms.get(word) ?? 0) + 1);
      spellings.set(term, forms);
      if (!seen.has(term)) {
        seen.add(term);
        tools.set(term, (tools.get(term) ?? 0) + 1);
      }
    }
  }
const lines = [...tools]
  .sort((a, b) => b[1] - a[1]) // stable: ties stay in catalog order
  .slice(0, LIMIT)
  .map(([term, count]) => {
    const [spelling] = [...(spellings.get(term) ?? [])].sort((a, b) => b[1] - a[1])[0] ?? [term];
    return `${spelling}\t${count}`;
  });
process.stdout.write(`${lines.join('\n')}\n`);
