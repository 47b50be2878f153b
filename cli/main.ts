// The wafctl process: real I/O and clients in, exit code out. Everything else is in run.ts.
import { processIo } from './io.js';
import { realDeps } from './real-deps.js';
import { runCli } from './run.js';
import { packageVersion } from './version.js';

// `wafctl site list | head -1`: the reader went away, which is not an error of ours.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const deps = realDeps(processIo(), packageVersion());
const code = await runCli(process.argv.slice(2), deps);
await deps.close();
process.exitCode = code;
