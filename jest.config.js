/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.spec.ts'],
  transform: {
    // Transpile only (type-checking is `npm run typecheck`); .js for the ESM-only package below.
    '^.+\\.(ts|js)$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json', diagnostics: false }],
  },
  // ESM-only packages that CommonJS code requires (Node >= 20.19 can; jest cannot): compile them to CommonJS.
  transformIgnorePatterns: ['/node_modules/(?!(content-disposition)/)'],
  // clients/typescript imports its own modules as `./x.js` (its ESM build needs the extension): resolve to x.ts.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  // Every response of a Cairn server under test is checked against its /openapi.json (test/support/validate-fetch.ts).
  setupFilesAfterEnv: ['<rootDir>/test/support/validate-fetch.ts'],
  testTimeout: 30000,
  maxWorkers: 2,
};
