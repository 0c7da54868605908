import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/client',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
