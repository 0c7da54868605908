import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/bridge',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
