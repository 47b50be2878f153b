import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

// `daemon start --admin-socket /run/x.sock` moves the socket by a flag alone, which later CLI calls
// cannot know. The running daemon therefore leaves the socket's absolute path in the data dir
// (`wafctl.sock.path`, 0600), and removes it when it stops. A pointer left by a killed daemon names
// a socket nobody listens on: the CLI then reports the daemon unreachable, which is the truth, and
// the next daemon overwrites it.

export interface AdminSocketPointer {
  release(): void;
}

export function writeAdminSocketPointer(pointerFile: string, socketPath: string): AdminSocketPointer {
  const target = resolve(socketPath);
  writeFileSync(pointerFile, `${target}\n`, { mode: 0o600 });
  return {
    release() {
      try {
        // Only remove what is still ours: a newer daemon may have replaced it.
        if (readFileSync(pointerFile, 'utf8').trim() === target) unlinkSync(pointerFile);
      } catch {
        // already gone
      }
    },
  };
}
