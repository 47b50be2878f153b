import { join } from 'node:path';
import type { Logger } from 'pino';
import { dataPaths, type DataPaths } from '../shared/paths.js';
import type { CrsReloaded, DaemonStatus, DemoInfo } from '../shared/schemas/admin.js';
import { createAdminServer, type AdminServer, type RegisterAdminRoutes } from './admin/server.js';
import { ruleExclusionRoutes } from './admin/routes/rule-exclusions.js';
import { createApiServer, type ApiServer, type RegisterRoutes } from './api/server.js';
import { demoInfo, ensureDemoSite } from './demo/demo-site.js';
import { startDemoOrigin, type DemoOrigin } from './demo/origin.js';
import { openServices, type Services } from './app-services.js';
import { activeCrs, sameCrs, type ActiveCrs } from './crs/active-crs.js';
import type { EdgeFactory, EdgeService } from './edge-service.js';
import { createDaemonLogger } from './lifecycle/daemon-log.js';
import { WriteHealth } from './store/write-health.js';
import { writeAdminSocketPointer } from './lifecycle/admin-socket-pointer.js';
import { acquirePidLock, type PidLock } from './lifecycle/pid-lock.js';
import { Shutdown } from './lifecycle/shutdown.js';
import { checkSocketDirTrust } from './lifecycle/data-dir-trust.js';
import { listenError, prepareDataDir, StartupError, trusted } from './lifecycle/startup-errors.js';
import { VERSION } from './lifecycle/version.js';
import { OPTION_ROWS, RESTART_ONLY, type DaemonOptions } from './options/option-table.js';
import { resolveDaemonOptions, type Flags } from './options/resolve-options.js';
import { openPostgresConfigStore, type ClusterConfigStore } from './cluster/postgres-config-store.js';
import { clusterCaSharing } from './cluster/shared-ca.js';
import { ConfigFileError, openConfigStore, type ChangeListener, type ConfigStore } from './store/config/config-store.js';
import { liveSites } from './store/config/sites.js';
import { ensureApiTls, TlsSetupError, type ApiTls } from './tls/api-tls.js';
import { AcmeManager } from './tls/acme/acme-manager.js';
import { siteCertificates } from './tls/acme/site-certificates.js';

// The daemon, assembled: data dir, lock, log, config store, TLS, edge, API and admin servers.
// buildApp never listens; DaemonApp.listen binds everything and returns the status; stop() is the
// one graceful shutdown. main.ts owns argv, signals and the process exit.

export const DRAIN_MS = 10_000;

export interface BuildOptions {
  options: DaemonOptions;
  /** Kept to re-resolve daemon.json on reload with the same flags and environment. */
  flags?: Flags;
  env?: NodeJS.ProcessEnv;
  /** The edge to build instead of the proxy's (tests that want another data plane, or none). */
  edgeFactory?: EdgeFactory;
  apiRoutes?: RegisterRoutes[];
  adminRoutes?: RegisterAdminRoutes[];
  now?: () => Date;
}

export interface DaemonApp {
  readonly options: DaemonOptions;
  readonly paths: DataPaths;
  readonly store: ConfigStore;
  readonly logger: Logger;
  readonly shutdown: Shutdown;
  listen(): Promise<DaemonStatus>;
  status(): DaemonStatus;
  reload(): Promise<ReloadOutcome>;
  /** Graceful stop: resolves once everything is closed and the pid file is gone. */
  stop(reason: string): Promise<void>;
  /** The config-changed event: every accepted change and reload, as an immutable snapshot. */
  onConfigChange(listener: ChangeListener): () => void;
}

export type ReloadOutcome = { ok: true; crs: CrsReloaded } | { ok: false; message: string };

export async function buildApp(build: BuildOptions): Promise<DaemonApp> {
  const { options } = build;
  const now = build.now ?? (() => new Date());
  const paths = dataPaths(options.dataDir);
  await prepareDataDir(paths.dir);
  // An admin socket elsewhere (--admin-socket) gets the same rule for the dirs leading to it.
  await trusted(() => checkSocketDirTrust(options.adminSocket));
  const lock = acquirePidLock(paths.pidFile);
  let logger: Logger | null = null;
  let store: ConfigStore | null = null;
  let clusterConfig: ClusterConfigStore | null = null;
  try {
    const logHealth = new WriteHealth(paths.log);
    logger = createDaemonLogger(paths.log, undefined, logHealth);
    // Cluster mode keeps the config in PostgreSQL, with config.json as this node's cache of it.
    if (options.clusterPostgres) store = clusterConfig = await openPostgresConfigStore({ url: options.clusterPostgres, cacheFile: paths.config, logger, now });
    else store = await openConfigStore(paths.config, { now });
    const shareCa = options.clusterPostgres ? clusterCaSharing(options.clusterPostgres, logger) : undefined;
    const tls = await ensureApiTls(paths, { certFile: options.tlsCert ?? undefined, keyFile: options.tlsKey ?? undefined }, undefined, shareCa);
    if (tls.generated) logger.info({ dir: paths.tlsDir }, 'generated the local CA and API certificate');
    // The CRS the edge runs is decided once here and everything downstream (edge, workers, rules
    // routes, status) reads it from the options: the selected installed release, else --crs-dir.
    const crs = activeCrs(paths.dir, options.crsDir);
    if (crs.problem) logger.warn({ problem: crs.problem, crs_dir: options.crsDir }, 'selected Core Rule Set unusable: falling back to --crs-dir');
    const running: DaemonOptions = { ...options, crsDir: crs.dir };
    const services = await openServices({ options: running, paths, store, logger, now });
    return await assemble(build, { paths, lock, logger, logHealth, store, clusterConfig, tls, now, services, options: running, crs });
  } catch (error) {
    logger?.error({ err: error }, 'start failed');
    await store?.close?.().catch(() => undefined);
    lock.release();
    if (error instanceof ConfigFileError || error instanceof TlsSetupError) throw new StartupError(error.message);
    throw error;
  }
}

interface Parts {
  paths: DataPaths;
  lock: PidLock;
  logger: Logger;
  /** Whether daemon.log takes lines (for status). */
  logHealth: WriteHealth;
  store: ConfigStore;
  /** The same store in cluster mode, for status; null on a single node. */
  clusterConfig: ClusterConfigStore | null;
  tls: ApiTls;
  now: () => Date;
  services: Services;
  /** build.options with crsDir set to the CRS that runs. */
  options: DaemonOptions;
  crs: ActiveCrs;
}

async function assemble(build: BuildOptions, parts: Parts): Promise<DaemonApp> {
  const { paths, lock, logger, store, tls, now, services, options } = parts;
  const startedAt = now();
  const shutdown = new Shutdown(logger);
  const bound = { edge: 0, edgeTls: 0, api: 0 };
  let demo: { origin: DemoOrigin; info: DemoInfo } | null = null;
  let crs = parts.crs;

  const edgeFactory = build.edgeFactory ?? services.edgeFactory;
  const edge: EdgeService = await edgeFactory({ options, store, logger, tls, crs: { dir: crs.dir, pluginDirs: crs.pluginDirs } });
  const api: ApiServer = await createApiServer({ tls, logger, register: [...services.apiRoutes, ...(build.apiRoutes ?? [])] });
  let admin: AdminServer | null = null;

  const status = (): DaemonStatus => ({
    pid: process.pid,
    version: VERSION,
    started_at: startedAt.toISOString(),
    uptime_s: Math.round((now().getTime() - startedAt.getTime()) / 1000),
    data_dir: paths.dir,
    ports: { edge: bound.edge, edge_tls: bound.edgeTls, api: bound.api },
    api_url: `https://${urlHost(options.listenHost)}:${bound.api}`,
    ca_file: tls.caFile,
    admin_socket: options.adminSocket,
    sites: liveSites(store.snapshot()).length,
    crs: { found: crs.found, dir: crs.dir, version: crs.version, source: crs.source, plugins: crs.plugins },
    workers: options.workers,
    demo: demo?.info ?? null,
    edge: edge.load(),
    certificates: siteCertificates(store.snapshot()),
    write_failures: { events: services.eventStore.writeFailure?.() ?? null, log: parts.logHealth.state() },
    cluster: options.clusterPostgres !== null || options.clusterRedis !== null
      ? { counters: services.clusterCounters(), config: parts.clusterConfig?.clusterStatus() ?? null, events: services.clusterEvents() }
      : null,
  });

  // One switch at a time: two reloads racing would otherwise finish in either order.
  let crsSwitch: Promise<CrsReloaded> = Promise.resolve(reported(false));
  function reported(switched: boolean): CrsReloaded {
    return { found: crs.found, dir: crs.dir, version: crs.version, plugins: crs.plugins, switched };
  }
  /** Re-reads the CRS selection and installed plugins; when they changed, every site moves to rule sets built from them. */
  const reloadCrs = (): Promise<CrsReloaded> => (crsSwitch = crsSwitch.catch(() => reported(false)).then(async () => {
    const wanted = activeCrs(paths.dir, build.options.crsDir);
    if (wanted.problem) logger.warn({ problem: wanted.problem, crs_dir: build.options.crsDir }, 'selected Core Rule Set unusable: falling back to --crs-dir');
    if (sameCrs(wanted, crs)) return reported(false);
    if (!edge.switchCrs) return reported(false);
    await edge.switchCrs({ dir: wanted.dir, pluginDirs: wanted.pluginDirs });
    logger.info({ from: crs.version ?? crs.dir, to: wanted.version ?? wanted.dir, plugins: wanted.plugins }, 'the edge runs the new Core Rule Set');
    crs = wanted;
    return reported(true);
  }));

  const reload = async (): Promise<ReloadOutcome> => {
    try {
      const fresh = await resolveDaemonOptions(build.flags ?? {}, build.env ?? {});
      const needRestart = OPTION_ROWS.filter((row) => RESTART_ONLY.has(row.key) && JSON.stringify(fresh[row.key]) !== JSON.stringify(build.options[row.key])).map((row) => row.file);
      if (needRestart.length > 0) logger.warn({ settings: needRestart }, 'changed settings take effect after a restart');
    } catch (error) {
      return { ok: false, message: (error as Error).message };
    }
    const result = await store.reload();
    if (!result.ok) {
      logger.warn({ problem: result.message }, 'reload refused');
      return result;
    }
    try {
      const switched = await reloadCrs();
      logger.info('configuration reloaded');
      return { ok: true, crs: switched };
    } catch (error) {
      logger.error({ err: error }, 'the new Core Rule Set was not applied');
      return { ok: false, message: `the configuration was reloaded, the Core Rule Set was not switched: ${(error as Error).message}` };
    }
  };

  const stop = (reason: string) => shutdown.run(reason);

  const crsPlace = () => ({ dir: crs.dir, pluginDirs: crs.pluginDirs, pluginDigest: crs.pluginDigest });
  const adminDeps = { store, now, status, reload, reloadCrs, crsPlace, requestShutdown: (reason: string) => void stop(reason) };
  admin = await createAdminServer({
    socketPath: options.adminSocket,
    logger,
    deps: adminDeps,
    register: [
      ...services.adminRoutes,
      ruleExclusionRoutes({ ...adminDeps, wafRequest: (siteId, key) => services.eventStore.wafRequest(siteId, key) }),
      ...(build.adminRoutes ?? []),
    ],
  });

  // Orders need the edge to answer their challenges: the manager starts once it listens, stops first.
  const acme = new AcmeManager({
    store, logger, accountKeyFile: join(paths.tlsDir, 'acme-account.key'), now,
    renewBeforeMs: options.acmeRenewBeforeDays * 86_400_000, checkEveryMs: options.acmeCheckEveryMs,
  });
  shutdown.add('acme orders', () => acme.stop());
  // Stop accepting and drain first, then the files: the socket and pid file go last.
  shutdown.add('edge and api', async () => {
    await Promise.all([edge.close(DRAIN_MS), api.close(DRAIN_MS)]);
  });
  shutdown.add('event store and vulndb', () => services.close());
  shutdown.add('demo origin', async () => demo?.origin.close());
  shutdown.add('admin socket', async () => admin?.close());
  shutdown.add('config store', () => (store.close ? store.close() : store.flush()));
  shutdown.add('pid file', () => lock.release());
  shutdown.add('log', () => logger.info('stopped'));

  return {
    options,
    paths,
    store,
    logger,
    shutdown,
    status,
    reload,
    stop,
    onConfigChange: (listener) => store.onChange(listener),
    async listen() {
      try {
        const edgePorts = await edge.listen(options.listenHost, { edge: options.edgePort, edgeTls: options.edgeTlsPort })
          .catch((error: NodeJS.ErrnoException & { port?: number }) => {
            const tlsFailed = error.port === options.edgeTlsPort && options.edgeTlsPort !== options.edgePort;
            throw tlsFailed
              ? listenError(error, 'edge TLS', options.edgeTlsPort, 'edge-tls-port', options.listenHost)
              : listenError(error, 'edge', options.edgePort, 'edge-port', options.listenHost);
          });
        bound.edge = edgePorts.edge;
        bound.edgeTls = edgePorts.edgeTls;
        bound.api = await api.listen(options.apiPort, options.listenHost)
          .catch((error) => { throw listenError(error, 'api', options.apiPort, 'api-port', options.listenHost); });
        if (options.demo) {
          const origin = await startDemoOrigin(options.demoPort)
            .catch((error) => { throw listenError(error, 'demo origin', options.demoPort, 'demo-port', '127.0.0.1'); });
          demo = { origin, info: demoInfo(origin.url, urlHost(options.listenHost), bound.edge) };
          await ensureDemoSite(store, origin.url, now);
        }
        await admin!.listen();
        const pointer = writeAdminSocketPointer(paths.adminSocketPointer, options.adminSocket);
        shutdown.add('admin socket pointer', async () => pointer.release());
      } catch (error) {
        logger.error({ err: error }, 'start failed');
        await stop('start failed');
        throw error;
      }
      acme.start();
      const ready = status();
      logger.info({ ports: ready.ports, api_url: ready.api_url, crs: ready.crs, data_dir: ready.data_dir }, 'ready');
      return ready;
    },
  };
}

/** The host a local client should use: loopback for wildcard binds, brackets for IPv6. */
function urlHost(listenHost: string): string {
  if (listenHost === '0.0.0.0' || listenHost === '::') return '127.0.0.1';
  return listenHost.includes(':') ? `[${listenHost}]` : listenHost;
}
