import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

// Where wafctl keeps its data (DESIGN.md section 1): $WAFCTL_DATA_DIR, else $XDG_DATA_HOME/wafctl,
// else ~/.local/share/wafctl. Every file name inside the data dir is decided here and nowhere else.

export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WAFCTL_DATA_DIR) return resolve(env.WAFCTL_DATA_DIR);
  if (env.XDG_DATA_HOME) return resolve(env.XDG_DATA_HOME, 'wafctl');
  return join(homedir(), '.local', 'share', 'wafctl');
}

export interface DataPaths {
  dir: string;
  config: string;
  daemonConfig: string;
  adminSocket: string;
  /** Written by a running daemon: the absolute path of its admin socket, wherever a flag put it. */
  adminSocketPointer: string;
  pidFile: string;
  log: string;
  tlsDir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  eventsDir: string;
  vulndbDir: string;
  /** HMAC key of the edge's JS challenge, stable across restarts. */
  challengeKey: string;
  /** Bans of a node without --cluster-postgres (daemon/bans/file-ban-store.ts). */
  bans: string;
  /** Installed Core Rule Set releases, one directory per version (`wafctl crs install`). */
  crsDir: string;
  /** The version the daemon runs, one line (`wafctl crs use`); absent: none selected. */
  crsSelection: string;
  /** CRS plugins every CRS 4 site loads, one directory per plugin (`wafctl crs plugin add`). */
  crsPluginsDir: string;
}

export function dataPaths(dataDir: string): DataPaths {
  const dir = resolve(dataDir);
  const tlsDir = join(dir, 'tls');
  return {
    dir,
    config: join(dir, 'config.json'),
    daemonConfig: join(dir, 'daemon.json'),
    adminSocket: join(dir, 'wafctl.sock'),
    adminSocketPointer: join(dir, 'wafctl.sock.path'),
    pidFile: join(dir, 'wafctl.pid'),
    log: join(dir, 'daemon.log'),
    tlsDir,
    caCert: join(tlsDir, 'ca.crt'),
    caKey: join(tlsDir, 'ca.key'),
    serverCert: join(tlsDir, 'server.crt'),
    serverKey: join(tlsDir, 'server.key'),
    eventsDir: join(dir, 'events'),
    vulndbDir: join(dir, 'vulndb'),
    challengeKey: join(dir, 'challenge.key'),
    bans: join(dir, 'bans.json'),
    crsDir: join(dir, 'crs'),
    crsSelection: join(dir, 'crs', 'selected'),
    crsPluginsDir: join(dir, 'crs-plugins'),
  };
}
