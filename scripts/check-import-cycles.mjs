#!/usr/bin/env node
// Fails when TypeScript modules of the workspace import each other in a circle, type-only imports
// included (a cycle through types still means two modules that cannot be read, or moved, apart).
// Part of `npm run lint`. Cycles between projects are the lint's own concern
// (@nx/enforce-module-boundaries reports them); this check sees the files inside a project too.
//
// `node scripts/check-import-cycles.mjs [--json]`: prints each cycle as a chain of files.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Cycles tolerated for now: none. An entry here lets one exact cycle pass while it is being
 * removed; a cycle not listed fails, and so does a listed one that is gone (delete its entry, so
 * that it cannot come back unnoticed).
 */
export const KNOWN_CYCLES = [];
const SKIP = new Set(['node_modules', 'dist', 'out-tsc', 'coverage', '.nx', 'json-schema']);

/** Every .ts file under the workspace's packages (sources, tests, benchmarks, scripts). */
function sourceFiles(root) {
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir)) {
      if (SKIP.has(entry) || entry.startsWith('.')) continue;
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) files.push(path);
    }
  };
  for (const base of ['libs', 'services', 'proto']) if (existsSync(join(root, base))) walk(join(root, base));
  return files;
}

/** `@toolsearch/<name>[/<entry>]` → the file its package's `exports` names. */
function workspaceEntries(root) {
  const entries = new Map();
  for (const dir of [
    ...readdirSync(join(root, 'libs')).map((name) => join('libs', name)),
    ...readdirSync(join(root, 'services')).map((name) => join('services', name)),
    'proto',
  ]) {
    const manifest = join(root, dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, exports = {} } = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const [key, target] of Object.entries(exports)) {
      const file = typeof target === 'string' ? target : (target.default ?? target.types);
      if (typeof file === 'string') entries.set(key === '.' ? name : `${name}/${key.slice(2)}`, join(root, dir, file));
    }
  }
  return entries;
}

const IMPORT = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"]([^'"]+)['"]/g;

/** The workspace files `file` imports (relative paths and @toolsearch/* packages). */
function importsOf(file, entries) {
  const text = readFileSync(file, 'utf8');
  const targets = new Set();
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1];
    let target;
    if (specifier.startsWith('.')) {
      const base = resolve(dirname(file), specifier);
      target = [`${base}.ts`, join(base, 'index.ts'), base.replace(/\.js$/, '.ts'), base].find(
        (path) => path.endsWith('.ts') && existsSync(path),
      );
    } else target = entries.get(specifier);
    if (target !== undefined) targets.add(target);
  }
  return [...targets];
}

/** The import cycles among the workspace's TypeScript files (Tarjan's strongly connected components). */
export function importCycles(root = ROOT) {
  const entries = workspaceEntries(root);
  const graph = new Map(sourceFiles(root).map((file) => [file, importsOf(file, entries)]));
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const cycles = [];
  let counter = 0;
  const connect = (file) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file), low.get(next)));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file), index.get(next)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = (graph.get(file) ?? []).includes(file);
    if (component.length > 1 || selfImport) cycles.push(component.map((path) => relative(root, path)).sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return cycles;
}

/** The cycles not in KNOWN_CYCLES, and the known ones that no longer exist. */
export function checkCycles(root = ROOT) {
  const key = (cycle) => [...cycle].sort().join(' <-> ');
  const found = importCycles(root);
  const known = new Set(KNOWN_CYCLES.map(key));
  const current = new Set(found.map(key));
  return {
    found,
    fresh: found.filter((cycle) => !known.has(key(cycle))),
    gone: KNOWN_CYCLES.filter((cycle) => !current.has(key(cycle))),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { found, fresh, gone } = checkCycles();
  if (process.argv.includes('--json')) console.log(JSON.stringify(found, null, 2));
  for (const cycle of fresh)
    console.error(`import cycle: ${cycle.join(' <-> ')}\n  move what both sides need into a module of its own`);
  for (const cycle of gone)
    console.error(
      `no longer a cycle: ${cycle.join(' <-> ')}\n  remove it from KNOWN_CYCLES in scripts/check-import-cycles.mjs`,
    );
  if (fresh.length > 0 || gone.length > 0) process.exit(1);
  console.log(`no import cycle among the workspace's modules (${KNOWN_CYCLES.length} known, listed in the script)`);
}
