// Writes proto/json-schema/toolsearch-v1.json from the zod contract. A test fails when the file
// on disk differs from what this would write, so the published schema never goes stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { contractJsonSchema } from '../src/index';

const target = fileURLToPath(new URL('../json-schema/toolsearch-v1.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(contractJsonSchema(), null, 2)}\n`);
console.log(`wrote ${target}`);
