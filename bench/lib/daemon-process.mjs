// What the benches that run the real daemon as a child process share: waiting for its readiness
// message, and running the built CLI against it (bench/flood, bench/overload).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** The daemon's status once it says `ready` over IPC; rejects on its error message or exit. */
export function daemonReady(child) {
  return new Promise((resolve, reject) => {
    child.once('message', (m) => (m.type === 'ready' ? resolve(m.status) : reject(new Error(m.message))));
    child.once('exit', (code) => reject(new Error(`daemon exited ${code}`)));
  });
}

/** `wafctl ...args` from `repo`'s dist/ with `env`: resolves with its stdout, rejects on a non-zero exit. */
export function wafctlRunner(repo, env) {
  return (...a) => new Promise((resolve, reject) => {
    const c = spawn(process.execPath, [join(repo, 'dist/cli/main.js'), ...a], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    c.stdout.on('data', (d) => (out += d));
    c.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`wafctl ${a.join(' ')}: exit ${code}`))));
  });
}
