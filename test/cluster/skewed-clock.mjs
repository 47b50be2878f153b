// Preloaded into one cluster node by the counter tests (NODE_OPTIONS=--import=<this file>) to run
// it with its clock off by TEST_CLOCK_SKEW_MS: Date.now() is what the edge's rate limit reads. A
// test-only stand-in for a host whose clock drifted; nothing in the daemon knows about it.
const skew = Number(process.env.TEST_CLOCK_SKEW_MS ?? 0);
const realNow = Date.now;
Date.now = () => realNow() + skew;
