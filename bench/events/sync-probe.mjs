#!/usr/bin/env node
// The disk under the group commit: write + fdatasync of one buffer, K at a time on one file
// (one descriptor each, writes in order, syncs overlapping), as the commit pipeline does.
// Prints commits/s, MB/s and latency per size and K. Tells whether overlapping syncs pay on
// this disk today (they do when commits/s rises with K), and what one commit costs.
//
//   node bench/events/sync-probe.mjs [--sizes 55000,220000,440000] [--inflight 1,2,4] [--n 200] [--dir DIR]
import fs from 'node:fs';
import path from 'node:path';
import { dataDir } from './anchor/lib/paths.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => { const i = argv.indexOf(`--${name}`); return i >= 0 ? argv[i + 1] : dflt; };
const sizes = String(opt('sizes', '55000,220000,440000')).split(',').map(Number);
const inflight = String(opt('inflight', '1,2,4')).split(',').map(Number);
const N = Number(opt('n', 200));
const dir = opt('dir', dataDir); // the disk the store uses
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, `sync-probe-${process.pid}.tmp`);
const call = (fn) => new Promise((res, rej) => fn((e, v) => (e ? rej(e) : res(v))));

for (const size of sizes) {
  for (const k of inflight) {
    fs.rmSync(file, { force: true });
    const fds = Array.from({ length: k }, () => fs.openSync(file, 'a'));
    const buf = Buffer.alloc(size, 0x78);
    let lastWrite = Promise.resolve();
    let started = 0;
    const lat = [];
    const t0 = performance.now();
    const worker = async (i) => {
      while (started < N) {
        started++;
        const t = performance.now();
        const w = lastWrite.then(() => call((cb) => fs.write(fds[i], buf, cb)));
        lastWrite = w;
        await w;
        await call((cb) => fs.fdatasync(fds[i], cb));
        lat.push(performance.now() - t);
      }
    };
    await Promise.all(fds.map((_, i) => worker(i)));
    const secs = (performance.now() - t0) / 1000;
    lat.sort((a, b) => a - b);
    const q = (p) => lat[Math.min(lat.length - 1, Math.floor(lat.length * p))].toFixed(2);
    console.log(`size ${size} B, ${k} in flight: ${(N / secs).toFixed(0)} commits/s, ${((N * size) / secs / 1e6).toFixed(0)} MB/s, latency p50 ${q(0.5)} p90 ${q(0.9)} ms`);
    for (const fd of fds) fs.closeSync(fd);
  }
}
fs.rmSync(file, { force: true });
