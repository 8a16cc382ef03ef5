// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'assert',
  'buffer',
  'child_process',
  'cluster',
  'crypto',
  'dgram',
  'dns',
  'events',
  'fs',
  'fs/promises',
  'http',
  'http2',
  'https',
  'net',
  'os',
  'path',
  'perf_hooks',
  'process',
  'readline',
  'stream',
  'tls',
  'url',
  'util',
  'v8',
  'vm',
  'worker_threads',
  'zlib',
  'timers',
];

/**
 * The entry of each process (and the client library's one documented convenience): the only modules that read
 * process.env. docs/architecture.md, "Configuration", says which entry reads what.
 */
export const ENV_ENTRY_MODULES = [
  'workers/main.ts', // the long-lived worker (`xborder worker`, the worker image)
  'workers/stuck-gauge-main.ts', // the stuck gauge, one process per cluster (the worker image, compose service stuck-gauge)
  'workers/lambda-main.ts', // the Lambda worker's handler
  'src/ingress/main.ts', // the webhook ingress (`xborder ingress`, the ingress image)
  'src/ingress/lambda-main.ts', // the Lambda ingress's handler
  'src/cli/main.ts', // the `xborder` command, which hands its environment to each subcommand
  'src/codec/main.ts', // the codec server image
  'src/sandbox/main.ts', // `npm run sandbox`
  'src/client/connect-from-env.ts', // connectClientFromEnv(): what a backend service calls, by name
];

export default tseslint.config(
  {
    ignores: [
      'node_modules/**',
      'dist/**',
      '.tools/**',
      '.data/**',
      'coverage/**',
      'test-artifacts/**',
      '.stryker-tmp/**',
      'reports/**',
      'test/lint-fixtures/**',
      'test/package/consumer/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'inline-type-imports' },
      ],
    },
  },
  {
    // Workflow code is bundled and replayed: no I/O, no Node built-ins, no HTTP client, no provider client.
    // Activities are imported with `import type` only (enforced by allowTypeImports). The Nexus service definition
    // runs in callers' workflow bundles: the same rules.
    files: [
      'workflows/**/*.ts',
      'src/nexus/service.ts',
      'test/support/workflows/**/*.ts',
      'test/lint-fixtures/workflows/**/*.ts',
    ],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.flatMap((name) => [
              { name, message: 'Workflows are deterministic: no Node built-ins.' },
              { name: `node:${name}`, message: 'Workflows are deterministic: no Node built-ins.' },
            ]),
            { name: 'got', message: 'Workflows do no I/O: call an activity instead.' },
            { name: '@temporalio/activity', message: 'Workflows do not import activity code.' },
            { name: '@temporalio/worker', message: 'Workflows do not import worker code.' },
            // api.ts helpers take a Client parameter (typed only): the client itself never loads in a workflow
            {
              name: '@temporalio/client',
              allowTypeImports: true,
              message: 'Workflows do not import the client; use child workflows or signals.',
            },
            // docs/performance.md: every cached workflow evaluates the bundle's modules; zod costs ~6 MB each
            {
              name: 'zod',
              allowTypeImports: true,
              message:
                "No zod in workflow code (docs/performance.md): take input already parsed at the edge (client, ingress, activities), typed with the contract's types.",
            },
          ],
          patterns: [
            {
              group: ['**/src/provider', '**/src/provider/**'],
              message: 'Workflows never import the provider client: call an activity.',
            },
            {
              group: ['**/src/sandbox', '**/src/sandbox/**', '**/src/ingress/**', '**/src/cli/**'],
              message: 'Workflows never import I/O modules.',
            },
            {
              group: ['**/activities', '**/activities/**'],
              allowTypeImports: true,
              message: 'Import activities with `import type` only.',
            },
            {
              regex: '(^|/)(src/contract(/index)?|inputs)$',
              allowTypeImports: true,
              message:
                'The contract index and inputs.ts load zod: import types only, or a zod-free file of src/contract (test/unit/workflow-modules-zod-free.test.ts).',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is pure: zod only.
    files: ['src/contract/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'src/contract is pure: no I/O.' })),
            { name: 'got', message: 'src/contract is pure: no I/O.' },
          ],
          patterns: [
            { group: ['**/src/*/**', '../*', '!./**'], message: 'src/contract imports zod and itself only.' },
          ],
        },
      ],
    },
  },
  {
    // Client-only users install no @temporalio/worker (an optional peer): the client entry never imports it.
    files: ['src/client/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@temporalio/worker',
              message: 'src/client is what client-only users load: no worker code.',
            },
          ],
        },
      ],
    },
  },
  {
    // The sandbox and the provider client share only the contract, so neither can hide the other's bugs.
    files: ['src/sandbox/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/provider', '**/provider/**', '**/client/**', '**/ingress/**'],
              message: 'The sandbox shares only src/contract with the client.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/provider/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/sandbox', '**/sandbox/**', '**/client/**', '**/ingress/**'],
              message: 'The provider client shares only src/contract with the sandbox.',
            },
          ],
        },
      ],
    },
  },
  {
    // Configuration flows one way (docs/architecture.md, "Configuration"): each process reads its environment once,
    // at its entry, into typed config it hands down. Only these entry modules may touch process.env.
    files: [
      'src/**/*.ts',
      'workers/**/*.ts',
      'activities/**/*.ts',
      'workflows/**/*.ts',
      'test/lint-fixtures/config/**/*.ts',
    ],
    ignores: ENV_ENTRY_MODULES,
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message:
            'Only entry modules read process.env (ENV_ENTRY_MODULES in eslint.config.mjs): take a typed config, or an Environment parameter, from your caller.',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
);
