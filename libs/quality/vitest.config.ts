import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/quality',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
