/**
 * Unit specs sit beside the code (src/**\/*.spec.ts, and the specs of bench/ and harness/); HTTP-level
 * and network tests live in test/ (docs/testing.md).
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/harness'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }],
    // The pages' modules (public/, plain ES modules for the browser) that the specs of their pure
    // functions import (test/dashboard/*.spec.ts): to CommonJS, as jest's runtime loads them.
    '/public/.+\\.js$': [
      'ts-jest',
      { tsconfig: { allowJs: true, module: 'commonjs', target: 'ES2022' }, isolatedModules: true },
    ],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // marked ships as an ES module, which jest's CommonJS runtime cannot load; its UMD build is the same code.
  moduleNameMapper: { '^marked$': '<rootDir>/node_modules/marked/lib/marked.umd.js' },
  testTimeout: 30000,
  maxWorkers: 2,
};
