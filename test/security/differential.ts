import { plainBytes, plainForms } from './app-view.js';
import { END_PATH, endRequest, HOST, type Probe } from './probe-catalogue.js';
import { exchange } from './raw-exchange.js';
import type { OriginRecord, RecordingOrigin } from './recording-origin.js';

// Runs the catalogue against one proxy and judges what its origin received. A probe's verdict:
// - `refused`: nothing of it reached the origin (the proxy answered it itself, or dropped it);
// - `forwarded-clean`: what reached the origin, written plainly, passes the judge;
// - `BYPASS`: something that reached the origin is refused by the judge when written plainly:
//   the proxy forwarded an attack its rules stop when they can read it;
// - `timeout`: the proxy neither answered nor closed within the deadline.
// The judge is the same rule set behind the same proxy kind (a twin of our edge, or the same nginx),
// so "refused when plain" means exactly "the rule set the site runs would have stopped it".

export type Verdict = 'refused' | 'forwarded-clean' | 'BYPASS' | 'timeout';

export interface ProxyUnderTest {
  name: string;
  port: number;
  origin: RecordingOrigin;
  /** Sends a plain request to the judge: true when the judge's origin answered it (it passed). */
  passesJudge(plain: Buffer): Promise<boolean>;
}

export interface ProbeResult {
  probe: Probe;
  verdict: Verdict;
  /** Statuses the client got, in order (the end request's included). */
  statuses: number[];
  /** Requests of the probe the origin received (the end request not counted). */
  forwarded: number;
  /** The plain forms the judge refused (method and target), for the report. */
  bypassing: string[];
  /** Answers of the proxy itself (4xx/5xx) that carried no request id. */
  refusalsWithoutId: number;
}

const isEnd = (r: OriginRecord) => r.method === 'GET' && r.target === END_PATH && r.body.length === 0;

export async function runProbes(proxy: ProxyUnderTest, probes: readonly Probe[]): Promise<ProbeResult[]> {
  const marks = probes.map((_, i) => `${proxy.name}-p${i}`);
  const exchanges = [];
  for (const [i, probe] of probes.entries()) {
    proxy.origin.current = marks[i];
    exchanges.push(await exchange(proxy.port, Buffer.concat([probe.bytes(marks[i]), endRequest(marks[i])])));
  }
  // A fence: once a fresh request has gone through, whatever the proxy still had in flight for the
  // probes has reached the origin (records are attributed by mark, so late arrivals still count).
  proxy.origin.current = 'fence';
  await exchange(proxy.port, endRequest('fence'));
  proxy.origin.current = 'judge';

  const known = new Set(marks);
  const results: ProbeResult[] = [];
  for (const [i, probe] of probes.entries()) {
    const mark = marks[i];
    // A request without a known mark (a proxy that rewrote or lost it) belongs to the probe that was running.
    const records = proxy.origin.records.filter((r) => (known.has(r.mark) ? r.mark === mark : r.during === mark) && !isEnd(r));
    const bypassing: string[] = [];
    for (const plain of records.flatMap(plainForms)) {
      if (!(await proxy.passesJudge(plainBytes(plain, HOST, 'judge')))) bypassing.push(`${plain.method} ${plain.target}`);
    }
    const ex = exchanges[i];
    const verdict: Verdict = bypassing.length > 0 ? 'BYPASS' : ex.timedOut ? 'timeout' : records.length === 0 ? 'refused' : 'forwarded-clean';
    results.push({
      probe, verdict, bypassing, forwarded: records.length,
      statuses: ex.responses.map((r) => r.status),
      refusalsWithoutId: ex.responses.filter((r) => !r.fromOrigin && r.status >= 400 && !r.requestId).length,
    });
  }
  return results;
}

/** A judge that sends the plain request to `port` and asks whether the origin answered. */
export function judgeAt(port: number): (plain: Buffer) => Promise<boolean> {
  return async (plain) => (await exchange(port, plain)).responses.some((r) => r.fromOrigin);
}
