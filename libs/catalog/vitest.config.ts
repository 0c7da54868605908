import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/catalog',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
