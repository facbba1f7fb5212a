// The lint of the whole tree (`npm run lint`, run by `npm test` through scripts/check-and-build.sh).
// The rule set and why each extra rule is on: docs/contributing.md. An eslint-disable comment names
// a rule this file turns on and says why after `--`; a stale one fails the lint.
import js from '@eslint/js';
// globals comes with eslint itself (through @eslint/eslintrc): the browser's and Node's global names.
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Unused names are errors, except a leading underscore: the house's way to drop fields while copying
 * (`const { id: _id, ...rest } = row`) or to keep an argument a signature needs. A caught error may
 * go unused (`catch (err) {}` reads as intended).
 */
const UNUSED = ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }];

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'data/**', 'bench/results/**', 'test/artifacts/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  {
    rules: {
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-unused-vars': UNUSED,
      // Rejecting control characters is a text rule here (names, headers, paths, config values):
      // every \x00-\x1f in a pattern is meant, and the rule would ask for a disable at each one.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': UNUSED,
      // `import x = require('...')` is TypeScript's typed import; only bare require() calls are flagged.
      '@typescript-eslint/no-require-imports': ['error', { allowAsImport: true }],
      // The type-aware rules that pay here: a promise nobody awaits loses its error (and in a spec,
      // its assertion); a promise where a callback returns void is the same bug one step removed.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-implied-eval': 'error',
      // Domain code throws ApiError (or another Error): the filter renders only those.
      '@typescript-eslint/only-throw-error': 'error',
      // Kinds are unions that grow (monitor kinds, channel kinds): a switch without a default must
      // name every member, so a new kind fails the lint where it is not handled.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // The pages' scripts: ES modules the browser loads as they are (no build step).
    files: ['public/**/*.js'],
    languageOptions: { sourceType: 'module', globals: globals.browser },
  },
  {
    files: ['**/*.js'],
    ignores: ['public/**'],
    languageOptions: { sourceType: 'commonjs', globals: globals.node },
  },
  {
    files: ['**/*.mjs'],
    languageOptions: { sourceType: 'module', globals: globals.node },
  },
);
