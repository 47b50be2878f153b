// The test tiers, as file globs. `npm test` runs all four; each has its own script so a developer
// can run the fast one while working. The line between them is in test/README.md ("Tiers").
// Unit is what is left once the others are taken out, so a file lands in exactly one tier and the
// whole suite is the same set of files whichever way it is split.

/** CRS's own regression suites, replayed through the engine (CRS 3 and CRS 4). */
export const CONFORMANCE = ['test/crs/**/*.test.ts', 'test/crs4/**/*.test.ts'];

/** Failure, overload and fuzz runs; `npm run reliability` turns their rounds up. */
export const RELIABILITY = ['test/reliability/**/*.test.ts'];

/**
 * Tests that start a daemon, an edge serving real sockets, a child process (the CLI, node,
 * nginx, bash, a busy loop), a browser, or mount a file system.
 */
export const SYSTEM = [
  'test/e2e/**/*.test.ts',
  'test/wp-plugin/**/*.test.ts',
  'test/cluster/**/*.test.ts',
  'test/security/bypass-harness.test.ts',
  'test/security/wordpress-benign.test.ts',
  'test/bench/proxy/summarize.test.ts',
  'test/cli/process.test.ts',
  'test/contrib/systemd-verify.test.ts',
  'test/cli/commands/completion/completion.test.ts',
  'test/daemon/demo/demo.test.ts',
  'test/daemon/engine/budget/thread-clock.test.ts',
  'test/daemon/lifecycle/app-proxy-edge.test.ts',
  'test/daemon/lifecycle/daemon-process.test.ts',
  'test/daemon/lifecycle/daemon-services.test.ts',
  'test/daemon/lifecycle/data-dir-trust.test.ts',
  'test/daemon/lifecycle/edge-workers.test.ts',
  'test/daemon/lifecycle/pid-lock.test.ts',
  'test/daemon/store/events/crash.test.ts',
  'test/daemon/store/events/disk-full.test.ts',
  'test/daemon/store/redis/call-deadline.test.ts',
  'test/daemon/rule-sets/multipart-part-headers-edge.test.ts',
  'test/daemon/rule-sets/request-line-edge.test.ts',
  'test/daemon/proxy/bot.test.ts',
  'test/daemon/proxy/challenge-chromium.test.ts',
  'test/daemon/proxy/challenge-return-path.test.ts',
  'test/daemon/proxy/checks.test.ts',
  'test/daemon/proxy/cluster.test.ts',
  'test/daemon/proxy/edge-factory.test.ts',
  'test/daemon/proxy/forwarding.test.ts',
  'test/daemon/proxy/inspector.test.ts',
  'test/daemon/proxy/origin-relay.test.ts',
  'test/daemon/proxy/path-escapes.test.ts',
  'test/daemon/proxy/path-escapes-nginx.test.ts',
  'test/daemon/proxy/response-inspection.test.ts',
  'test/daemon/proxy/response-budget.test.ts',
  'test/daemon/rule-sets/cms.test.ts',
  'test/daemon/proxy/site-isolation.test.ts',
  'test/daemon/proxy/tls.test.ts',
  'test/daemon/proxy/upgrade.test.ts',
  'test/daemon/proxy/upgrade-nginx.test.ts',
  'test/daemon/proxy/hardening/body-limits-edge.test.ts',
  'test/daemon/proxy/hardening/engine-budget-refusal.test.ts',
  'test/daemon/proxy/hardening/failure-modes.test.ts',
  'test/daemon/proxy/hardening/limits-and-slow-clients.test.ts',
  'test/daemon/proxy/hardening/protocol.test.ts',
  'test/daemon/proxy/hardening/shedding.test.ts',
  'test/daemon/proxy/hardening/tls-policy.test.ts',
  'test/daemon/proxy/hardening/unparsed-requests.test.ts',
  'test/daemon/proxy/hardening/refused-requests-rules.test.ts',
];

/** Every test file; the tiers above split it. */
export const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx'];
