/**
 * Unit specs sit beside the code (src/**\/*.spec.ts, and the specs of bench/ and harness/); HTTP-level
 * and network tests live in test/ (docs/testing.md).
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/harness'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  // marked ships as an ES module, which jest's CommonJS runtime cannot load; its UMD build is the same code.
  moduleNameMapper: { '^marked$': '<rootDir>/node_modules/marked/lib/marked.umd.js' },
  testTimeout: 30000,
  maxWorkers: 2,
};
