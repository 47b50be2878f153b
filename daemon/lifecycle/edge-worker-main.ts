// An edge worker process (`--workers N` > 1): forked by the daemon through node:cluster, it runs
// the proxy edge on the shared edge ports. Counters and events go to the primary (cluster-ipc.ts);
// config arrives as snapshot inputs; it stops when the primary says so or goes away.

import { BanTable } from '../bans/ban-table.js';
import { IpcCounterStore, ipcEventSink } from '../proxy/cluster-ipc.js';
import { Edge } from '../proxy/edge.js';
import { buildEdgeSnapshot, type EdgeSnapshot } from '../proxy/snapshot.js';
import { describeSiteProblem } from '../proxy/site-fallback.js';
import { createEngineInspector } from '../rule-sets/engine-inspector.js';
import { findCrs, RuleGroups } from '../rule-sets/rule-groups.js';
import {
  BANS, CRS_SWITCHED, FAILED, INIT, LISTENING, LOAD, LOAD_REPORT_MS, LOG, READY, SNAPSHOT, STOP, STOPPED, SWITCH_CRS, type FromWorker, type ToWorker,
} from './edge-worker-protocol.js';
import { routeConsoleToLog } from './console-to-log.js';

const send = (message: FromWorker, done?: () => void) => {
  if (process.connected) process.send!(message, undefined, {}, () => done?.());
  else done?.();
};

// This process's stdio is not connected: what the edge reports with console.error reaches the daemon log.
routeConsoleToLog((level, message) => send({ type: LOG, level, message }));

// Signals are the primary's business: it drains the workers itself.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => undefined);
process.on('disconnect', () => process.exit(0)); // the primary is gone
process.on('uncaughtException', (error) => {
  reportLoad(); // the counts since the last report, so the primary's sums lose nothing on a crash
  send({ type: LOG, level: 'error', message: `edge worker crashed: ${error.stack ?? error.message}` }, () => process.exit(1));
});

const sink = ipcEventSink();
/** The primary's live bans, replaced whole by each BANS message. */
const bans = new BanTable();
let edge: Edge | null = null;
let groups: RuleGroups | null = null;
let loadTimer: NodeJS.Timeout | null = null;
let lastLoad = '';

process.on('message', (message: ToWorker) => {
  if (message?.type === INIT) {
    bans.replace(message.bans, Date.now());
    void start(message);
  } else if (message?.type === BANS) {
    bans.replace(message.bans, Date.now());
  } else if (message?.type === SNAPSHOT && edge) {
    try {
      const next = buildEdgeSnapshot(message.input, { previous: edge.snapshot });
      reportProblems(next);
      edge.setSnapshot(next);
    } catch (error) {
      send({ type: LOG, level: 'error', message: `new configuration not applied, the previous one stays: ${(error as Error).message}` });
    }
  } else if (message?.type === SWITCH_CRS && groups) {
    const id = message.id;
    groups.switchCrs(findCrs(message.crs.dir, message.crs.pluginDirs))
      .catch((error: Error) => send({ type: LOG, level: 'error', message: `the new Core Rule Set was not applied: ${error.message}` }))
      .finally(() => send({ type: CRS_SWITCHED, id }));
  } else if (message?.type === STOP) {
    void stop(message.drainMs);
  }
});

send({ type: READY });

async function start(init: Extract<ToWorker, { type: typeof INIT }>): Promise<void> {
  try {
    // Isolated per site: a site that does not compile is served unavailable, the worker still starts.
    const first = buildEdgeSnapshot(init.input, { previous: null });
    reportProblems(first);
    edge = new Edge({
      snapshot: first,
      sink,
      counters: new IpcCounterStore(),
      bans,
      trustedProxies: init.trustedProxies,
      challengeSecret: Buffer.from(init.challengeSecret, 'hex'),
      fallbackTls: init.tls,
      inspector: createEngineInspector((groups = warmRuleGroups(init.crs)), { timeBudgetMs: init.hardening.wafTimeBudgetMs }),
      limits: init.hardening.limits,
      maxBodyBytes: init.hardening.maxBodyBytes,
    });
    const http = await edge.listenHttp({ port: init.ports.edge, host: init.host });
    const https = await edge.listenHttps({ port: init.ports.edgeTls, host: init.host });
    send({ type: LISTENING, edge: http, edgeTls: https });
    // The primary answers `daemon status` from the last report, without asking (status() stays synchronous).
    loadTimer = setInterval(reportLoad, LOAD_REPORT_MS);
    loadTimer.unref();
  } catch (error) {
    const e = error as NodeJS.ErrnoException & { port?: number };
    send({ type: FAILED, message: e.message, code: e.code, port: e.port }, () => process.exit(1));
  }
}

async function stop(drainMs: number): Promise<void> {
  await edge?.close(drainMs);
  if (loadTimer) clearInterval(loadTimer);
  reportLoad(); // the last counts, drain included; sent before STOPPED on the same channel
  await sink.flush();
  send({ type: STOPPED }, () => process.exit(0));
}

function reportProblems(snapshot: EdgeSnapshot): void {
  for (const problem of snapshot.problems) send({ type: LOG, level: 'error', message: describeSiteProblem(problem) });
}

/** Sends the shedder's counts when they changed since the last report (an idle worker stays quiet). */
function reportLoad(): void {
  if (!edge) return;
  const stats = edge.loadStats();
  const key = JSON.stringify(stats);
  if (key === lastLoad) return;
  lastLoad = key;
  send({ type: LOAD, stats });
}

/** Compiles paranoia level 1 before listening, so the first request does not pay for it. */
function warmRuleGroups(crs: { dir: string; pluginDirs: string[] }): RuleGroups {
  const groups = new RuleGroups(findCrs(crs.dir, crs.pluginDirs), { log: (message) => send({ type: LOG, level: 'error', message }) });
  groups.forParanoia(1);
  return groups;
}
