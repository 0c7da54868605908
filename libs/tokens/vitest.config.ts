import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/tokens',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
