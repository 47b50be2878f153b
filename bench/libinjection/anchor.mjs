// The C anchor: builds anchor/anchor.c against the libinjection that Debian's libmodsecurity3
// exports (apt-get install libmodsecurity3; needs gcc) into the OS temp dir, and runs it.
// Returns null when that is not possible, so the bench still runs without it.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const LIB = '/usr/lib/x86_64-linux-gnu/libmodsecurity.so.3';
const binary = join(tmpdir(), 'wafctl-libinjection-anchor');
let built;

function build() {
  if (!existsSync(LIB)) return false;
  try {
    execFileSync('gcc', ['-O2', '-o', binary, join(here, 'anchor', 'anchor.c'), '-l:libmodsecurity.so.3'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Length-prefixed byte strings, the anchor's stdin format. */
export function encodeInputs(inputs) {
  return Buffer.concat(inputs.flatMap((s) => {
    const body = Buffer.from(s, 'latin1');
    const len = Buffer.alloc(4);
    len.writeUInt32LE(body.length);
    return [len, body];
  }));
}

/** Runs the anchor; returns its stdout lines split on tabs, or null when it is unavailable. */
export function anchorRun(args, inputs) {
  if (built === undefined) built = build(); // once per run, so edits to anchor.c take effect
  if (!built) return null;
  const r = spawnSync(binary, args, { input: encodeInputs(inputs), maxBuffer: 256 * 1024 * 1024 });
  if (r.status !== 0) return null;
  return { version: r.stderr.toString().trim(), lines: r.stdout.toString().trim().split('\n').map((l) => l.split('\t')) };
}

/** C timings keyed like run.mjs's TS timings, or null. */
export function runAnchor(samples, rounds, iterations, corpusInputs, passes = 1) {
  const names = Object.keys(samples);
  const timed = anchorRun(['time', String(rounds), String(iterations)], Object.values(samples));
  if (timed === null) return null;
  const out = { version: timed.version };
  names.forEach((name, i) => {
    out[`sqli ${name}`] = Number(timed.lines[i][0]);
    out[`xss ${name}`] = Number(timed.lines[i][1]);
  });
  if (corpusInputs) {
    const pass = anchorRun(['pass', String(passes)], corpusInputs);
    if (pass) {
      out.sqliPass = Number(pass.lines[0][0]);
      out.xssPass = Number(pass.lines[0][1]);
    }
  }
  return out;
}
