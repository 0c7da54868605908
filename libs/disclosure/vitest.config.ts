import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/disclosure',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
