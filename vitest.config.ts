import { configDefaults, defineConfig } from 'vitest/config';
import { ALL, CONFORMANCE, RELIABILITY, SYSTEM } from './test/tiers.js';

// Two cores on CI: run test files in two forks; e2e tests start real daemons, so give them room.
// `vitest run` runs every project, which is the whole suite; `--project NAME` runs one tier.
const tier = (name: string, include: string[], exclude: string[] = []) => ({
  extends: true as const,
  test: { name, include, exclude: [...configDefaults.exclude, ...exclude] },
});

export default defineConfig({
  test: {
    pool: 'forks',
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/plain-summary-reporter.ts'],
    projects: [
      tier('unit', ALL, [...CONFORMANCE, ...RELIABILITY, ...SYSTEM]),
      tier('conformance', CONFORMANCE),
      tier('system', SYSTEM),
      tier('reliability', RELIABILITY),
    ],
  },
});
