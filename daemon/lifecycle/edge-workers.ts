import cluster, { type Worker } from 'node:cluster';
import { fileURLToPath } from 'node:url';
import type { Logger } from 'pino';
import { startCrsOf, type EdgeFactory, type EdgeService } from '../edge-service.js';
import { edgeHardeningOf } from '../options/edge-limits-of.js';
import type { Ban } from '../../shared/schemas/bans.js';
import { serveWorker } from '../proxy/cluster-ipc.js';
import { watchedSink, type EdgeBans } from '../bans/edge-bans.js';
import type { EventSink } from '../proxy/events.js';
import { edgeConfigFromSites } from '../proxy/from-config.js';
import { LastGoodInputs } from '../proxy/last-good-inputs.js';
import { describeSiteProblem } from '../proxy/site-fallback.js';
import { EdgeLoadTotals } from '../proxy/hardening/edge-load-totals.js';
import type { CounterStore } from '../store/counter-store.js';
import {
  BANS, CRS_SWITCHED, FAILED, INIT, LISTENING, LOAD, LOG, READY, SNAPSHOT, STOP, STOPPED, SWITCH_CRS, type FromWorker, type InitMessage, type ToWorker,
} from './edge-worker-protocol.js';

// The --workers N process model: the daemon stays the control plane (config store, APIs, event store)
// and node:cluster primary; N workers run the edge on the shared ports. Counters stay in the primary (exact limits
// across workers), events come back to the primary's sink, every config change goes to every worker,
// each worker reports its load counts every second (hardening/edge-load-totals.ts).
// (node:cluster shares a listening handle between workers that listen with identical arguments.)
// A worker that dies unexpectedly is replaced after a second.

const WORKER_ENTRY = fileURLToPath(new URL('./edge-worker-main.js', import.meta.url));
const RESPAWN_MS = 1_000;

export interface ClusteredEdgeOptions {
  workers: number;
  counters: CounterStore;
  sink: EventSink & { flush(): Promise<void> };
  trustedProxies: string[];
  challengeSecret: Buffer;
  /** The node's bans: strikes are read from the workers' events, the live list is sent to them. */
  bans?: WorkerBans;
}

export interface WorkerBans extends EdgeBans {
  live(): Ban[];
  onChange(listener: (live: Ban[]) => void): () => void;
}

export function clusteredEdgeFactory(options: ClusteredEdgeOptions): EdgeFactory {
  return (context): EdgeService => {
    const { options: daemonOptions, store, logger, tls } = context;
    cluster.setupPrimary({ exec: WORKER_ENTRY, args: [], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
    const workers = new Set<Worker>();
    /** Workers that said LISTENING: only they have connections to drain when the daemon stops. */
    const listening = new Set<Worker>();
    const load = new EdgeLoadTotals();
    let stopping = false;
    // What a worker started later (a replacement) compiles: the CRS of the last switch.
    let crs = startCrsOf(context);
    /** Switches waiting for workers' CRS_SWITCHED, by switch id. */
    const switches = new Map<number, { waiting: Set<Worker>; done: () => void }>();
    let switchId = 0;
    const switchedOn = (worker: Worker, id?: number) => {
      for (const [key, pending] of switches) {
        if (id !== undefined && key !== id) continue;
        pending.waiting.delete(worker);
        if (pending.waiting.size === 0) { switches.delete(key); pending.done(); }
      }
    };
    let init: Omit<InitMessage, 'input'> | null = null;
    // Sites are isolated here, once for all workers (last-good-inputs.ts): each worker gets a config
    // whose every site compiles, the same for all of them and for a respawned one.
    const inputs = new LastGoodInputs();
    const select = () => {
      const { config, problems } = inputs.select(edgeConfigFromSites(store.snapshot().sites));
      for (const problem of problems) logger.error(describeSiteProblem(problem));
      return config;
    };
    let selected = select();
    const current = () => selected;

    const unsubscribe = store.onChange(() => {
      selected = select();
      const message: ToWorker = { type: SNAPSHOT, input: current() };
      for (const worker of workers) if (worker.isConnected()) worker.send(message);
    });
    const stopBans = options.bans?.onChange((live) => {
      const message: ToWorker = { type: BANS, bans: live };
      for (const worker of workers) if (worker.isConnected()) worker.send(message);
    });
    const sink = watchedSink(options.sink, options.bans);

    const fork = (): Promise<{ edge: number; edgeTls: number }> => new Promise((resolve, reject) => {
      const worker = cluster.fork();
      workers.add(worker);
      // A send that races the worker's exit (a snapshot or STOP while it is going away) fails on the
      // channel: that is the worker's end, which 'exit' handles, not a reason for the primary to crash
      // (an uncaught one made a daemon that failed to start exit without saying why, under load).
      worker.on('error', (error: Error) => logger.warn({ worker: worker.id, err: error }, 'edge worker channel error'));
      serveWorker(worker, options.counters, sink);
      let up = false;
      worker.on('message', (message: FromWorker) => {
        if (message?.type === READY) {
          worker.send({ ...init!, input: current(), bans: options.bans?.live() ?? [] } satisfies InitMessage);
        } else if (message?.type === LISTENING) {
          up = true;
          listening.add(worker);
          resolve({ edge: message.edge, edgeTls: message.edgeTls });
        } else if (message?.type === FAILED) {
          reject(Object.assign(new Error(message.message), { code: message.code, port: message.port }));
        } else if (message?.type === LOG) {
          logger[message.level]({ worker: worker.id }, message.message);
        } else if (message?.type === LOAD) {
          load.report(worker.id, message.stats);
        } else if (message?.type === CRS_SWITCHED) {
          switchedOn(worker, message.id);
        }
      });
      worker.on('exit', (code, signal) => {
        workers.delete(worker);
        listening.delete(worker);
        load.retire(worker.id);
        switchedOn(worker); // a dead worker holds no switch up; its replacement starts on the new rules
        if (!up) reject(new Error(`edge worker exited (${signal ?? `code ${code}`}) before listening`));
        else if (!stopping) respawn(logger, code, signal);
      });
    });

    const respawn = (log: Logger, code: number | null, signal: string | null) => {
      log.error({ code, signal }, 'edge worker died; starting a replacement');
      setTimeout(() => {
        if (!stopping) fork().catch((error: Error) => log.error({ err: error }, 'replacement edge worker failed'));
      }, RESPAWN_MS).unref();
    };

    return {
      async listen(host, ports) {
        init = { type: INIT, tls: { cert: tls.cert, key: tls.key }, host, ports, trustedProxies: options.trustedProxies, challengeSecret: options.challengeSecret.toString('hex'), crs, hardening: edgeHardeningOf(daemonOptions), bans: [] };
        try {
          // Every worker listens with the same arguments (port 0 included): the primary then hands them
          // all the one handle it bound for the first.
          const bound = await fork();
          await Promise.all(Array.from({ length: options.workers - 1 }, fork));
          logger.info({ workers: options.workers, ports: bound }, 'edge workers listening');
          return bound;
        } catch (error) {
          stopping = true;
          for (const worker of workers) worker.process.kill('SIGKILL');
          throw error;
        }
      },
      async close(drainMs) {
        stopping = true;
        unsubscribe();
        stopBans?.();
        await Promise.all([...workers].map((worker) => new Promise<void>((resolve) => {
          const force = setTimeout(() => worker.process.kill('SIGKILL'), drainMs + 2_000);
          worker.once('exit', () => {
            clearTimeout(force);
            resolve();
          });
          worker.on('message', (message: FromWorker) => {
            if (message?.type === STOPPED) worker.disconnect();
          });
          // A worker still starting (a replacement compiling its rule sets) has no connection to
          // drain, and would read STOP only once its compile is done: it goes at once.
          if (worker.isConnected() && listening.has(worker)) worker.send({ type: STOP, drainMs } satisfies ToWorker);
          else worker.process.kill('SIGKILL');
        })));
        await options.sink.flush();
      },
      load: () => load.total(),
      switchCrs(next) {
        crs = next;
        if (init) init = { ...init, crs };
        const targets = [...listening].filter((worker) => worker.isConnected());
        if (targets.length === 0) return Promise.resolve();
        const id = ++switchId;
        return new Promise<void>((done) => {
          switches.set(id, { waiting: new Set(targets), done });
          for (const worker of targets) worker.send({ type: SWITCH_CRS, crs: next, id } satisfies ToWorker);
        });
      },
    };
  };
}
