import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

export default tseslint.config(
  { ignores: ['dist/**', 'libs/*/dist/**', 'node_modules/**', 'apps/api/src/generated/**', 'apps/web/src/gql/**', 'libs/client/src/gql/**', 'examples/dist/**', '.data/**', 'coverage/**', 'test-results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // The rules engine must stay pure: nothing from Node, Nest or Prisma.
      'no-restricted-imports': 'off',
    },
  },
  {
    files: ['libs/rules/src/**/*.ts', 'libs/rules/test-kit/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', '@nestjs/*', '@prisma/*', '**/apps/**', 'fs', 'path', 'crypto'], message: 'libs/rules is pure' }] },
      ],
      'no-restricted-globals': ['error', { name: 'Date', message: 'the rules read no clock' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'chance comes from the seed' }],
    },
  },
  {
    // Bots are as pure as the rules, and see a seat's view only: never the rules' internals.
    files: ['libs/bots/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*', '@nestjs/*', '@prisma/*', '**/apps/**', 'fs', 'path', 'crypto'], message: 'libs/bots is pure' },
            { group: ['**/libs/rules/**', '**/rules/src/**'], message: "import '@mizerka/rules'" },
          ],
        },
      ],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'chance comes from the seed' }],
    },
  },
  {
    // Tournament pairings and standings are as pure as the rules: the same inputs give the same plan.
    files: ['libs/tournaments/src/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: ['node:*', '@nestjs/*', '@prisma/*', '**/apps/**', '**/libs/**', 'fs', 'path', 'crypto'], message: 'libs/tournaments is pure' }] },
      ],
      'no-restricted-globals': ['error', { name: 'Date', message: 'the caller gives the time' }],
      'no-restricted-properties': ['error', { object: 'Math', property: 'random', message: 'chance comes from the seed' }],
    },
  },
  {
    // The rules library by its package name (libs/rules/package.json), never by a path into its source.
    files: ['apps/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'prisma/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/libs/rules/src/**'], message: "import '@mizerka/rules'" },
            { group: ['**/libs/bots/src/**'], message: "import '@mizerka/bots'" },
            { group: ['**/libs/tournaments/src/**'], message: "import '@mizerka/tournaments'" },
          ],
        },
      ],
    },
  },
  { files: ['apps/web/*.mjs', 'libs/client/*.mjs'], languageOptions: { globals: { URL: 'readonly' } } },
  // The web client's service worker (Web Push): a worker's globals.
  { files: ['apps/web/public/sw.js'], languageOptions: { globals: { self: 'readonly', clients: 'readonly', URL: 'readonly' } } },
  {
    // The web client (apps/web) runs in the browser; hooks checked by their two classic rules.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { window: 'readonly', document: 'readonly', localStorage: 'readonly', location: 'readonly', navigator: 'readonly' } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'no-restricted-imports': ['error', { patterns: [{ group: ['node:*', '@nestjs/*', '@prisma/*', '**/apps/api/**'], message: 'the web client talks to the API only over HTTP and graphql-ws' }] }],
    },
  },
);
