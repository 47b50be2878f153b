// Which admin socket belongs to a data dir. The daemon takes --admin-socket, WAFCTL_ADMIN_SOCKET or
// daemon.json's admin_socket (default <data>/wafctl.sock). The CLI follows WAFCTL_ADMIN_SOCKET, then
// the pointer a running daemon leaves in its data dir (so a socket moved by a flag alone is found
// too), then daemon.json, then the default.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { dataPaths } from '../shared/paths.js';
import type { Env } from './io.js';

export function adminSocketPath(dataDir: string, env: Env): string {
  if (env.WAFCTL_ADMIN_SOCKET) return resolve(env.WAFCTL_ADMIN_SOCKET);
  const paths = dataPaths(dataDir);
  const pointed = readPointer(paths.adminSocketPointer);
  if (pointed !== null) return pointed;
  try {
    const file = JSON.parse(readFileSync(paths.daemonConfig, 'utf8')) as { admin_socket?: unknown };
    if (typeof file.admin_socket === 'string' && file.admin_socket.trim() !== '') {
      return isAbsolute(file.admin_socket) ? file.admin_socket : resolve(paths.dir, file.admin_socket);
    }
  } catch {
    // no daemon.json, or one the daemon itself will complain about: the default applies
  }
  return paths.adminSocket;
}

function readPointer(file: string): string | null {
  try {
    const target = readFileSync(file, 'utf8').trim();
    return isAbsolute(target) ? target : null;
  } catch {
    return null; // no daemon running, or one older than the pointer file
  }
}
