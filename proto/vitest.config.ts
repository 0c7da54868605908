import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/proto',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
