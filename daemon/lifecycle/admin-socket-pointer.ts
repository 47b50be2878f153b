import { unlinkSync } from 'node:fs';
import { resolve } from 'node:path';
import { readOwnedFileSync, rewriteFileSync } from './safe-open.js';

// `daemon start --admin-socket /run/x.sock` moves the socket by a flag alone, which later CLI calls
// cannot know. The running daemon therefore leaves the socket's absolute path in the data dir
// (`wafctl.sock.path`, 0600), and removes it when it stops. A pointer left by a killed daemon names
// a socket nobody listens on: the CLI then reports the daemon unreachable, which is the truth, and
// the next daemon overwrites it. Neither write nor read follows a link in its place.

export interface AdminSocketPointer {
  release(): void;
}

export function writeAdminSocketPointer(pointerFile: string, socketPath: string): AdminSocketPointer {
  const target = resolve(socketPath);
  rewriteFileSync(pointerFile, `${target}\n`, 0o600);
  return {
    release() {
      try {
        // Only remove what is still ours: a newer daemon may have replaced it.
        if (readOwnedFileSync(pointerFile)?.toString('utf8').trim() === target) unlinkSync(pointerFile);
      } catch {
        // already gone
      }
    },
  };
}
