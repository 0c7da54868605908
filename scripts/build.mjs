#!/usr/bin/env node
// Compiles the two programs of the workspace, toolsearchd and the toolsearch CLI, to JavaScript that
// plain `node` runs: one ES module per program in its project's dist/ (`dist/main.js`, with a
// source map). `node scripts/build.mjs [toolsearchd|cli ...]`; the Nx `build` targets call it.
//
// Why a bundle and not `tsc` output: the sources import each other without file extensions
// (`moduleResolution: bundler`) and the workspace packages export their TypeScript sources, two
// things Node's own loader refuses. esbuild resolves both at build time; the workspace's own
// packages (@toolsearch/*) go into the bundle, every npm package stays an import resolved by Node
// at run time — native addons, WASM, pino's transport workers, BullMQ and the MCP SDK load from
// node_modules exactly as they do from the sources.
//
// A build writes each file to a temporary name and renames it, so `npm start` and a test run that
// build at the same moment never read a half-written bundle; `dist/build-info.json` lists the
// files the bundle was made from, which `ensureBuilt` compares with the sources.
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The programs: each is one entry file bundled to `<project>/dist/main.js`. */
export const PROGRAMS = {
  toolsearchd: { project: 'services/toolsearchd', entry: 'src/main.ts' },
  cli: { project: 'services/toolsearch-cli', entry: 'src/main.ts' },
};

/** Where a program's bundle is written, relative to the repository root. */
export const bundlePath = (name) => join(PROGRAMS[name].project, 'dist', 'main.js');

/** Files besides the sources whose change makes a bundle stale (what is external, how it builds). */
export const BUILD_CONFIG = ['scripts/build.mjs', 'package-lock.json', 'tsconfig.base.json'];

const WORKSPACE_SCOPE = '@toolsearch/';
const isBare = (path) => !path.startsWith('.') && !path.startsWith('/') && !path.startsWith('node:');

/**
 * Keeps every npm package out of the bundle. The bundle imports a package by name when Node,
 * starting from the bundle, finds the same copy the source file would have found; otherwise (a
 * library with its own nested copy, such as libs/bridge/node_modules/ajv) by a relative path to
 * that copy, so the program runs with the same dependency versions as the sources.
 */
function externalPackages(outdir) {
  return {
    name: 'external-packages',
    setup(build) {
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData?.probe || !isBare(args.path) || args.path.startsWith(WORKSPACE_SCOPE)) return undefined;
        const probe = (resolveDir) =>
          build.resolve(args.path, { kind: args.kind, resolveDir, pluginData: { probe: true } });
        const fromSource = await probe(args.resolveDir);
        if (fromSource.errors.length > 0) return { errors: fromSource.errors };
        const fromBundle = await probe(outdir);
        if (fromBundle.errors.length === 0 && fromBundle.path === fromSource.path)
          return { path: args.path, external: true };
        const path = relative(outdir, fromSource.path).split(sep).join('/');
        return { path: path.startsWith('.') ? path : `./${path}`, external: true };
      });
    },
  };
}

/**
 * A workspace source that finds files next to itself through `import.meta.url` (the token
 * counter's native addon, tiktoken's rank files) must still find them once bundled: its
 * `import.meta.url` becomes the source file's URL, computed from the bundle's own location.
 */
function sourceRelativeUrls(outdir) {
  return {
    name: 'source-relative-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const { readFile } = await import('node:fs/promises');
        const text = await readFile(args.path, 'utf8');
        if (!text.includes('import.meta.url')) return undefined;
        const fromBundle = relative(outdir, args.path).split(sep).join('/');
        const url = `new URL(${JSON.stringify(fromBundle)}, import.meta.url).href`;
        return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

/** Writes a file whole or not at all (a rename within one folder is atomic). */
function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(temporary, contents);
  renameSync(temporary, path);
}

/** Bundles one program; returns the repository-relative paths of the source files it was made from. */
export async function buildProgram(name, root = ROOT) {
  const { build } = await import('esbuild');
  const { project, entry } = PROGRAMS[name];
  // Sources are read after this moment: one saved during the build counts as newer than the bundle.
  const startedAt = Date.now();
  const outdir = resolve(root, project, 'dist');
  // Resolving a package from the bundle's folder (externalPackages) needs the folder to exist.
  mkdirSync(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, project, entry)],
    outfile: join(outdir, 'main.js'),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    sourcemap: 'linked',
    // Error classes and actors are told apart by name in places (`error.name`, logs): two modules'
    // classes of one name must not come out as `ConfigError2`.
    keepNames: true,
    logLevel: 'warning',
    plugins: [externalPackages(outdir), sourceRelativeUrls(outdir)],
  });
  const inputs = Object.keys(result.metafile.inputs).sort();
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  writeAtomically(
    join(outdir, 'build-info.json'),
    `${JSON.stringify({ entry: join(project, entry), startedAt, inputs: [...inputs, ...BUILD_CONFIG] }, null, 2)}\n`,
  );
  return inputs;
}

/** Bundles the named programs (all by default), one after the other. */
export async function buildPrograms(names = Object.keys(PROGRAMS), root = ROOT) {
  for (const name of names) {
    if (!(name in PROGRAMS)) throw new Error(`unknown program '${name}' (known: ${Object.keys(PROGRAMS).join(', ')})`);
    await buildProgram(name, root);
  }
}

/**
 * Whether a program's bundle is missing or older than a file it was made from (its build-info
 * lists them: the sources it bundled, this script and the lockfile). A source file added since
 * only matters once an existing one imports it, and that one is then newer than the bundle.
 */
export function isStale(name, root = ROOT) {
  const bundle = resolve(root, bundlePath(name));
  const info = join(dirname(bundle), 'build-info.json');
  if (!existsSync(bundle) || !existsSync(info)) return true;
  const { startedAt, inputs } = JSON.parse(readFileSync(info, 'utf8'));
  if (typeof startedAt !== 'number' || !Array.isArray(inputs)) return true;
  return inputs.some((input) => {
    const path = resolve(root, input);
    return !existsSync(path) || statSync(path).mtimeMs > startedAt;
  });
}

/**
 * Builds the named programs whose bundle is missing or stale (what `npm start`, the `toolsearch`
 * command and the test setup call first); a fresh bundle costs a few file stats. Returns the names
 * it built.
 */
export async function ensureBuilt(names = Object.keys(PROGRAMS), root = ROOT) {
  const stale = names.filter((name) => isStale(name, root));
  if (stale.length > 0) await buildPrograms(stale, root);
  return stale;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const started = performance.now();
  const names = process.argv.slice(2);
  try {
    await buildPrograms(names.length > 0 ? names : undefined);
  } catch (error) {
    console.error(`toolsearch build: ${error.message}`);
    process.exit(1);
  }
  const built = (names.length > 0 ? names : Object.keys(PROGRAMS)).map(bundlePath).join(', ');
  console.log(`built ${built} in ${Math.round(performance.now() - started)} ms`);
}
