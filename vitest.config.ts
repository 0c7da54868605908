import { defineConfig } from 'vitest/config';

// One run over every project of the workspace (each keeps its own vitest.config.ts).
export default defineConfig({
  test: {
    projects: ['libs/*/vitest.config.ts', 'services/*/vitest.config.ts', 'proto/vitest.config.ts'],
  },
});
