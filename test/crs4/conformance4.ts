// Runs go-ftw 2 tests (CRS 4) through the daemon's edge (a real listener, the real engine
// inspector) in front of an albedo origin, judging each stage like go-ftw. The log lines judged
// are those of the transactions the stage's request opened: what go-ftw cuts from the log between
// its start and end marker requests, without the marker round trips. `retry_once` re-runs a
// failed stage once, as go-ftw does.
import type { Waf } from '../../daemon/engine/waf.js';
import { sendRaw } from '../crs/ftw-client.js';
import { EdgeUnderTest } from '../crs/harness/edge-under-test.js';
import { startAlbedoOrigin } from './harness/albedo-origin.js';
import { buildGoFtwRequest } from './go-ftw-request.js';
import { judgeGoFtwStage, loggedIds } from './go-ftw-judge.js';
import type { GoFtwStage, GoFtwTest } from './go-ftw-suite.js';

export interface GoFtwResult {
  title: string;
  file: string;
  passed: boolean;
  reason?: string;
  firedIds: number[];
}

async function runStage(edge: EdgeUnderTest, stage: GoFtwStage, timeoutMs: number, fired: Set<number>): Promise<string | undefined> {
  let bytes: Buffer;
  try {
    bytes = buildGoFtwRequest(stage.input);
  } catch (err) {
    return `request not built: ${(err as Error).message}`;
  }
  await edge.takeLogLines();
  const exchange = await sendRaw(edge.port, bytes, timeoutMs);
  const lines = await edge.takeLogLines();
  for (const id of loggedIds(lines)) fired.add(id);
  return judgeGoFtwStage(stage.output, exchange, lines);
}

export async function runGoFtwConformance(waf: Waf, tests: readonly GoFtwTest[], timeoutMs = 1500): Promise<GoFtwResult[]> {
  const edge = await EdgeUnderTest.start(waf, startAlbedoOrigin);
  const results: GoFtwResult[] = [];
  try {
    for (const test of tests) {
      let reason: string | undefined;
      const fired = new Set<number>();
      for (const stage of test.stages) {
        let stageReason = await runStage(edge, stage, timeoutMs, fired);
        if (stageReason !== undefined && stage.output.retryOnce) stageReason = await runStage(edge, stage, timeoutMs, fired);
        reason ??= stageReason;
      }
      results.push({ title: test.title, file: test.file, passed: reason === undefined, reason, firedIds: [...fired].sort((a, b) => a - b) });
    }
  } finally {
    await edge.close();
  }
  return results;
}
