// Every request of the CRS regression corpus (each stage of each test), parsed as the engine sees
// it: for the tests that replay the whole corpus through two rule sets and compare.
import { parseRawHttpRequest } from './harness/raw-http.js';
import type { EngineRequest } from '../../daemon/engine/request/model.js';
import { loadSuite } from './conformance.js';
import { buildFtwRequest } from './ftw-request.js';

export function corpusRequests(): EngineRequest[] {
  const requests: EngineRequest[] = [];
  for (const test of loadSuite()) {
    for (const stage of test.stages) {
      const parsed = parseRawHttpRequest(buildFtwRequest(stage.input));
      if (parsed !== undefined) requests.push(parsed.request);
    }
  }
  return requests;
}
