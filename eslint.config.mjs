// Lint for the whole workspace. Two things matter most here:
// 1. Architecture, one direction: type:pure <- type:proto <- type:adapter <- type:app. Pure
//    libraries import only pure libraries and no I/O adapter package (NATS, Redis, BullMQ, MCP);
//    the wire contract (proto) builds on the pure tool model and is imported by adapters and apps,
//    never by a pure library. @nx/enforce-module-boundaries fails the lint on a wrong-way import
//    and on any cycle between projects; scripts/check-import-cycles.mjs (in `npm run lint`) on a
//    cycle between files.
// 2. Promises: a floating promise is an error, because a lost rejection in a daemon is a lost call.
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

const ADAPTER_PACKAGES = ['nats', '@nats-io/*', 'ioredis', 'bullmq', '@modelcontextprotocol/*', 'pino'];

export default [
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/out-tsc/**',
      '**/.nx/**',
      '**/coverage/**',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            {
              sourceTag: 'type:pure',
              onlyDependOnLibsWithTags: ['type:pure'],
              bannedExternalImports: ADAPTER_PACKAGES,
            },
            {
              sourceTag: 'type:proto',
              onlyDependOnLibsWithTags: ['type:proto', 'type:pure'],
              bannedExternalImports: ADAPTER_PACKAGES,
            },
            { sourceTag: 'type:adapter', onlyDependOnLibsWithTags: ['type:pure', 'type:proto', 'type:adapter'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:pure', 'type:proto', 'type:adapter'] },
          ],
        },
      ],
    },
  },
  {
    // Tests and benchmarks may also use the shared fixtures of libs/testing (built on the catalog
    // model; the catalog's own tests take them from its `testing` entry point, so no cycle).
    files: ['**/*.test.ts', '**/test/**/*.ts', '**/bench/**/*.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            {
              sourceTag: 'type:pure',
              onlyDependOnLibsWithTags: ['type:pure', 'type:testing'],
              bannedExternalImports: ADAPTER_PACKAGES,
            },
            {
              sourceTag: 'type:testing',
              onlyDependOnLibsWithTags: ['type:pure', 'type:proto', 'type:adapter', 'type:testing'],
            },
            { sourceTag: 'type:proto', onlyDependOnLibsWithTags: ['type:proto', 'type:pure', 'type:testing'] },
            {
              sourceTag: 'type:adapter',
              onlyDependOnLibsWithTags: ['type:pure', 'type:proto', 'type:adapter', 'type:testing'],
            },
            {
              sourceTag: 'type:app',
              onlyDependOnLibsWithTags: ['type:pure', 'type:proto', 'type:adapter', 'type:testing'],
            },
          ],
        },
      ],
    },
  },
  prettier,
];
