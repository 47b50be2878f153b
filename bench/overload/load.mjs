// Load generators for the overload bench (undici, no other dependency).
// closedLoop: N connections each sending the next request when the last is answered (capacity).
// openLoop: requests started on a fixed schedule whatever the answers (offered load), latency
// measured from the scheduled start, so a slow server cannot hide behind a slow client.
import { Pool } from 'undici';

export function tally() {
  return { ok: 0, shed: 0, other: 0, errors: 0, latenciesOk: [], statuses: {} };
}

function record(t, status, ms) {
  t.statuses[status] = (t.statuses[status] ?? 0) + 1;
  if (status === 200) { t.ok++; t.latenciesOk.push(ms); } else if (status === 503) t.shed++; else t.other++;
}

async function one(pool, path, host, t, startedAt, body = null) {
  try {
    const headers = { host, 'user-agent': 'Mozilla/5.0 (overload bench)', ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}) };
    const { statusCode, body: answer } = await pool.request({ path, method: body ? 'POST' : 'GET', headers, body });
    await answer.dump();
    record(t, statusCode, performance.now() - startedAt);
  } catch {
    t.errors++;
  }
}

export async function closedLoop({ url, host, path, connections, seconds, body = null }) {
  const pool = new Pool(url, { connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const t = tally();
  const until = performance.now() + seconds * 1000;
  const startedAt = performance.now();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (performance.now() < until) { const s = performance.now(); await one(pool, path, host, t, s, body); }
  }));
  const elapsed = (performance.now() - startedAt) / 1000;
  await pool.close();
  return { ...t, elapsed, okPerSecond: t.ok / elapsed };
}

/** Starts rate requests per second for `seconds`; at most maxOutstanding unanswered (beyond: counted as not sent). */
export async function openLoop({ url, host, path, rate, seconds, connections, maxOutstanding, body = null }) {
  const pool = new Pool(url, { connections, pipelining: 1, headersTimeout: 30_000, bodyTimeout: 30_000 });
  const t = tally();
  let outstanding = 0;
  let notSent = 0;
  let started = 0;
  const sendLag = [];
  const inflight = new Set();
  const begin = performance.now();
  await new Promise((resolve) => {
    const tick = () => {
      const now = performance.now();
      const due = Math.min(rate * seconds, Math.floor(((now - begin) / 1000) * rate));
      while (started < due) {
        const scheduled = begin + (started / rate) * 1000;
        started++;
        if (outstanding >= maxOutstanding) { notSent++; continue; }
        outstanding++;
        sendLag.push(now - scheduled);
        const p = one(pool, path, host, t, scheduled, body).finally(() => { outstanding--; inflight.delete(p); });
        inflight.add(p);
      }
      if (started >= rate * seconds) resolve(); else setTimeout(tick, 5);
    };
    tick();
  });
  await Promise.all(inflight);
  const elapsed = (performance.now() - begin) / 1000;
  await pool.close();
  // How late the generator itself started requests (a starved generator offers less than it claims).
  return { ...t, offered: started, notSent, elapsed, sendLagP50ms: percentile(sendLag, 50), sendLagP99ms: percentile(sendLag, 99) };
}

export function percentile(values, p) {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}
