import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/daemon',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Integration tests talk to real NATS and Redis; the setup makes sure both answer first.
    globalSetup: ['./test/global-setup.ts'],
    testTimeout: 20_000,
    // Every daemon serves the same subjects (toolsearch.v1.*.…), whatever its bucket and queue
    // group: two test files' daemons running at once would answer each other's requests.
    fileParallelism: false,
    hookTimeout: 30_000,
  },
});
