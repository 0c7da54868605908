// Builds the native token counter (native/counter.cc) with node-gyp when the workspace is installed.
// Without a C++ toolchain the build fails, this script says so and succeeds anyway: the counter then
// runs its JavaScript path, which gives the same counts, only slower in a fresh process.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function nodeGyp() {
  // npm names its bundled node-gyp in every lifecycle script it runs.
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return [process.execPath, fromNpm];
  return ['node-gyp'];
}

const [command, ...prefix] = nodeGyp();
const result = spawnSync(command, [...prefix, 'rebuild'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'pipe'],
  encoding: 'utf8',
});
if (result.status === 0) {
  console.log('@toolsearch/tokens: native counter built (build/Release/toolsearch_tokens.node)');
} else {
  const reason = result.error
    ? result.error.message
    : (result.stderr || result.stdout || '').trim().split('\n').slice(-5).join('\n');
  console.warn(
    '@toolsearch/tokens: could not build the native token counter; token counts stay exact but the ' +
      'first count of a large catalog in a fresh process is slower.\n' +
      'Install python3, make and a C++ compiler, then run `npm rebuild @toolsearch/tokens`.\n' +
      reason,
  );
}
