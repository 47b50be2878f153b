// The daemon process: argv and environment -> options -> buildApp -> listen, then signals.
// Started by `wafctl daemon start` through shared/daemon-launcher.ts (readiness over IPC), or by
// hand / systemd with --foreground. Exit codes: 0 clean stop, 1 could not start or crashed, 2 usage.

import { buildApp, type DaemonApp } from './app.js';
import { AlreadyRunningError } from './lifecycle/pid-lock.js';
import { reportFailure, reportReady } from './lifecycle/readiness.js';
import { routeConsoleToLog } from './lifecycle/console-to-log.js';
import { limitHeapGrowth } from './lifecycle/heap-growth.js';
import { OptionsError, parseDaemonArgv, resolveDaemonOptions, type Flags } from './options/resolve-options.js';

// Everything the daemon creates (config, keys, socket, log) is private to its user from the first byte.
process.umask(0o077);
// RSS close to the live set under a flood (lifecycle/heap-growth.ts).
limitHeapGrowth();

async function main(): Promise<void> {
  let flags: Flags;
  let app: DaemonApp;
  try {
    flags = parseDaemonArgv(process.argv.slice(2));
    const options = await resolveDaemonOptions(flags, process.env);
    app = await buildApp({ options, flags, env: process.env });
  } catch (error) {
    return fail(error, error instanceof OptionsError ? 2 : 1);
  }

  routeConsoleToLog((level, message) => app.logger[level](message));
  const exit = (code: number) => process.exit(code);
  app.shutdown.handleSignals(() => exit(1), () => void app.reload());
  let ready = false;
  process.on('uncaughtException', (error) => {
    app.logger.fatal({ err: error }, 'uncaught exception');
    // Before ready, `wafctl daemon start` is waiting: tell it why, not just that the daemon exited.
    const told = ready ? Promise.resolve() : reportFailure(`uncaught exception while starting: ${error.message.split('\n')[0]} (see daemon.log)`);
    // An event handler cannot be awaited: the chain ends in exit(1) whether the report or the
    // stop fails, so nothing is left unhandled (hence `void`, not a forgotten promise).
    void told.then(() => app.stop('uncaught exception')).finally(() => exit(1));
  });
  process.on('unhandledRejection', (error) => app.logger.error({ err: error }, 'unhandled rejection'));

  let status;
  try {
    status = await app.listen();
  } catch (error) {
    return fail(error, 1);
  }
  // However the stop was asked for (SIGTERM, SIGINT, the admin socket), it ends the process here.
  void app.shutdown.done.then(() => exit(0));
  ready = true;
  reportReady(status);
}

async function fail(error: unknown, code: number): Promise<void> {
  const message = error instanceof AlreadyRunningError
    ? `wafctl daemon is already running (pid ${error.pid})`
    : error instanceof Error ? error.message : String(error);
  await reportFailure(message.split('\n')[0]);
  process.exit(code);
}

void main();
