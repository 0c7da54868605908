// Writes docs/contract.md (subjects and error codes) from the contract in proto/src. A test fails
// when the committed page differs from what this would write, so the page never goes stale.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { CONTRACT_DOC_PATH, contractMarkdown } from './contract-doc';

const target = fileURLToPath(new URL(`../../${CONTRACT_DOC_PATH}`, import.meta.url));
writeFileSync(target, await contractMarkdown());
console.log(`wrote ${target}`);
