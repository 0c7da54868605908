import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
/* eslint-disable @nx/enforce-module-boundaries */
// @ts-expect-error -- a plain ESM script shared with npm start, without type declarations.
import { bundlePath as untypedBundlePath } from '../../../scripts/build.mjs';
/* eslint-enable @nx/enforce-module-boundaries */

// Every way the project ships the daemon runs the compiled bundle with plain node: the Docker
// image, both compose files, the Kubernetes manifests, `npm start` and the packages' `bin` entries.
// tsx is a development tool only (benchmarks, scripts); nothing that runs in production needs it.
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const DAEMON_BUNDLE = 'services/toolsearchd/dist/main.js';
const CLI_BUNDLE = 'services/toolsearch-cli/dist/main.js';
const bundlePath = untypedBundlePath as (name: string) => string;

type Container = { name: string; image?: string; command?: string[]; args?: string[] };

/** Every container of every Kubernetes manifest under infra/k8s, with the file it is in. */
function k8sContainers(): { file: string; container: Container }[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir))) {
      const path = join(dir, entry);
      if (statSync(join(ROOT, path)).isDirectory()) walk(path);
      else if (/\.ya?ml$/.test(entry)) files.push(path);
    }
  };
  walk('infra/k8s');
  return files.flatMap((file) =>
    parseAllDocuments(read(file)).flatMap((document) => {
      const manifest = document.toJSON() as { spec?: { template?: { spec?: { containers?: Container[] } } } } | null;
      return (manifest?.spec?.template?.spec?.containers ?? []).map((container) => ({ file, container }));
    }),
  );
}

/** The bare package names (or relative node_modules paths) a bundle imports at run time. */
function importsOf(bundle: string): string[] {
  const specifiers = new Set<string>();
  // Static imports start a line in esbuild's output; dynamic ones are `import("…")` calls. Text in
  // comments and strings (`"cat" is one edit from "car"`) is neither.
  const text = read(bundle);
  const found = [
    ...text.matchAll(/^import\b[^;]*?\bfrom\s*"([^"]+)"/gm),
    ...text.matchAll(/^import\s*"([^"]+)"/gm),
    ...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g),
  ];
  for (const match of found) if (match[1] !== undefined && !match[1].startsWith('node:')) specifiers.add(match[1]);
  return [...specifiers];
}

/** The node_modules folders Node looks in from `dir` (repository-relative), nearest first. */
function nodeModulesUp(dir: string): string[] {
  const parts = dir.split('/');
  return parts
    .map((_, index) => `${parts.slice(0, parts.length - index).join('/')}/node_modules/`)
    .concat('node_modules/');
}

describe('shipped entry points', () => {
  it('the Docker image runs the bundle with plain node and has no tsx in its final stage', () => {
    const dockerfile = read('Dockerfile');
    const finalStage = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(finalStage).toMatch(new RegExp(`^CMD \\["node", "${DAEMON_BUNDLE}"\\]$`, 'm'));
    expect(finalStage).toMatch(/^COPY --from=build \/app\/services\/toolsearchd\/dist /m);
    // Nothing is installed into the final stage: it holds the production dependencies only.
    expect(finalStage).not.toMatch(/npm (ci|install)/);
    expect(dockerfile).not.toMatch(/tsx/);
    expect(read('.dockerignore').split('\n')).toContain('**/dist');
  });

  it('both compose files run the daemon bundle with plain node', () => {
    const single = parse(read('docker-compose.yml')) as { services: Record<string, { command?: string[] }> };
    const script = single.services['toolsearchd']?.command?.at(-1) ?? '';
    expect(script).toMatch(new RegExp(`exec node ${DAEMON_BUNDLE} --config `));
    for (const file of ['docker-compose.yml', 'docker-compose.cluster.yml'])
      expect(read(file), file).not.toMatch(/tsx/);
    // The cluster file extends the single-node one and keeps its command.
    const cluster = parse(read('docker-compose.cluster.yml')) as { services: Record<string, { command?: unknown }> };
    expect(cluster.services['toolsearchd']?.command).toBeUndefined();
  });

  it('every Kubernetes container of the toolsearchd image runs the bundle with plain node', () => {
    const daemons = k8sContainers().filter(({ container }) => container.image?.includes('toolsearchd'));
    expect(daemons.length).toBeGreaterThan(0);
    for (const { file, container } of daemons) expect(container.command, file).toEqual(['node', DAEMON_BUNDLE]);
    for (const { file, container } of k8sContainers())
      expect(JSON.stringify(container), `${file}: ${container.name}`).not.toMatch(/tsx/);
  });

  it('npm start compiles the daemon when needed and spawns the bundle, not the sources', () => {
    const start = read('scripts/start.mjs');
    expect(start).toMatch(/spawn\(process\.execPath, \[bundlePath\('toolsearchd'\), '--config', config\]/);
    expect(start).not.toMatch(/tsx|src\/main\.ts/);
    expect(bundlePath('toolsearchd')).toBe(DAEMON_BUNDLE);
    expect(bundlePath('cli')).toBe(CLI_BUNDLE);
  });

  it('the CLI and the daemon have bin entries that load the bundles; tsx is only a dev dependency', () => {
    const daemon = JSON.parse(read('services/toolsearchd/package.json')) as Record<string, Record<string, string>>;
    const cli = JSON.parse(read('services/toolsearch-cli/package.json')) as Record<string, Record<string, string>>;
    expect(daemon['bin']).toEqual({ toolsearchd: 'bin/toolsearchd.mjs' });
    expect(cli['bin']).toEqual({ toolsearch: 'bin/toolsearch.mjs' });
    expect(read('services/toolsearchd/bin/toolsearchd.mjs')).toContain("await import('../dist/main.js')");
    expect(read('services/toolsearch-cli/bin/toolsearch.mjs')).toContain("await import('../dist/main.js')");
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    expect(lock.packages['node_modules/tsx']?.dev).toBe(true);
  });

  it('the bundles import only packages that a production install (npm ci --omit=dev) has', () => {
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { dev?: boolean }> };
    for (const bundle of [DAEMON_BUNDLE, CLI_BUNDLE]) {
      const imports = importsOf(bundle);
      expect(imports.length, bundle).toBeGreaterThan(5);
      for (const specifier of imports) {
        // `pkg`, `@scope/pkg`, `pkg/sub` (found as Node finds it: the nearest node_modules folder
        // up from the bundle), or a path into a nested node_modules folder.
        const name = /^(?:@[^/]+\/)?[^/]+/.exec(specifier)?.[0] ?? specifier;
        const location = specifier.startsWith('.')
          ? /^(?:\.\.\/)*(.*node_modules\/(?:@[^/]+\/)?[^/]+)/.exec(specifier)?.[1]
          : nodeModulesUp(dirname(bundle))
              .map((folder) => `${folder}${name}`)
              .find((path) => path in lock.packages);
        expect(location, `${bundle} imports ${specifier}`).toBeDefined();
        const entry = lock.packages[location ?? ''];
        expect(entry, `${bundle} imports ${specifier}, not in the lockfile at ${location}`).toBeDefined();
        expect(entry?.dev, `${bundle} imports ${specifier}, a dev dependency`).not.toBe(true);
      }
    }
  });

  it('plain node runs both bundles: the daemon reads its config, the CLI prints its help', () => {
    const daemon = spawnSync(process.execPath, [DAEMON_BUNDLE, '--config', '/nonexistent/toolsearchd.yaml'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(daemon.stderr).toMatch(/^toolsearchd: config error: cannot read config/);
    expect(daemon.status).toBe(2);
    const cli = spawnSync(process.execPath, ['services/toolsearch-cli/bin/toolsearch.mjs', '--help'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(cli.stdout).toMatch(/^toolsearch: tool search for LLM agent sessions\./);
    expect(cli.status).toBe(0);
  });
});
