#!/usr/bin/env node
// Where the time goes in a .cpuprofile (from `run.mjs --profile DIR`): self time by function and by
// file, as a share of the busy (non-idle) samples. `node bench/ingest/profile-summary.mjs FILE [TOP]`
import { readFileSync } from 'node:fs';

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.mjs FILE.cpuprofile [TOP]');
  process.exit(2);
}
const top = Number(topArg ?? 30);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const deltas = profile.timeDeltas;
const selfUs = new Map();
profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (deltas[i] ?? 0)));

const byFunction = new Map();
const byFile = new Map();
let busy = 0;
for (const [id, us] of selfUs) {
  const { callFrame } = byId.get(id);
  if (callFrame.functionName === '(idle)' || callFrame.functionName === '(program)') continue;
  busy += us;
  const where = callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^file:\/\//, '');
  const key = `${callFrame.functionName || '(anonymous)'}  ${where}:${callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + us);
  const fileKey = where || '(native)';
  byFile.set(fileKey, (byFile.get(fileKey) ?? 0) + us);
}
// Inclusive time: a sample counts once for every distinct function on its stack.
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const keyOf = (callFrame) => `${callFrame.functionName || '(anonymous)'}  ${callFrame.url.replace(/^.*\/(node_modules|dist)\//, '$1/').replace(/^file:\/\//, '')}:${callFrame.lineNumber + 1}`;
const inclusive = new Map();
for (const [id, us] of selfUs) {
  const leaf = byId.get(id).callFrame.functionName;
  if (leaf === '(idle)' || leaf === '(program)') continue;
  const seen = new Set();
  for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(byId.get(at).callFrame));
  for (const key of seen) inclusive.set(key, (inclusive.get(key) ?? 0) + us);
}
const show = (title, map) => {
  console.log(`\n${title}`);
  for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / busy).toFixed(1).padStart(5)}%  ${key}`);
  }
};
console.log(`busy: ${(busy / 1000).toFixed(0)} ms`);
show('self time by function', byFunction);
show('self time by file', byFile);
show('inclusive time by function', inclusive);
