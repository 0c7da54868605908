import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/search',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
