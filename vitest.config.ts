import { defineConfig } from 'vitest/config';

// Two cores on CI: run test files in two forks; e2e tests start real daemons, so give them room.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
  },
});
