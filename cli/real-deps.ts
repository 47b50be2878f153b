// The real implementations behind CommandDeps: the admin socket, the daemon launcher, the profile
// file, the HTTPS API client. main.ts builds these once per run and closes them at the end.
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { resolve } from 'node:path';
import { ApiClient } from '../shared/api-client/index.js';
import { defaultDataDir } from '../shared/paths.js';
import { ProfileStore } from '../shared/profile.js';
import { SocketAdminApi } from './admin-adapter.js';
import { adminSocketPath } from './admin-socket-path.js';
import { CliError } from './cli-error.js';
import type { CommandDeps } from './context.js';
import { crsReleases } from './crs-releases.js';
import { launcherControl } from './launcher-control.js';
import type { Io } from './io.js';

export interface RealDeps extends CommandDeps {
  close(): Promise<void>;
}

export function realDeps(io: Io, version: string): RealDeps {
  const admins = new Map<string, SocketAdminApi>();
  const apiClients: ApiClient[] = [];
  return {
    io,
    files: {
      read: (path) => (path === '-' ? process.stdin : createReadStream(resolve(path))),
      async create(path) {
        const handle = await open(resolve(path), 'w', 0o644);
        return { write: async (line) => void (await handle.write(line.endsWith('\n') ? line : line + '\n')), close: () => handle.close() };
      },
    },
    sleep: (ms) => delay(ms).then(() => undefined),
    version,
    defaultDataDir: () => defaultDataDir(io.env as NodeJS.ProcessEnv),
    admin(dataDir) {
      let admin = admins.get(dataDir);
      if (!admin) admins.set(dataDir, (admin = SocketAdminApi.forSocket(adminSocketPath(dataDir, io.env))));
      return admin;
    },
    daemon: launcherControl(io.env),
    profiles: new ProfileStore(io.env),
    async apiClient(options) {
      const client = await ApiClient.withCaFile({ ...options, userAgent: `wafctl/${version}` });
      apiClients.push(client);
      return client;
    },
    async checkCaFile(path) {
      const absolute = resolve(path);
      const text = await readFile(absolute, 'utf8').catch((error: Error) => {
        throw new CliError('invalid_ca', `cannot read CA file ${absolute}: ${error.message}`);
      });
      if (!text.includes('-----BEGIN CERTIFICATE-----')) throw new CliError('invalid_ca', `${absolute} holds no PEM certificate`);
      return absolute;
    },
    crs: (dataDir) => crsReleases(dataDir, io.env as NodeJS.ProcessEnv),
    async close() {
      await Promise.allSettled([...admins.values()].map((admin) => admin.close()));
      for (const client of apiClients) client.close();
    },
  };
}
