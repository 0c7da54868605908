import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/cli',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
