import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: '@toolsearch/daemon',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
