// Phase 2's first step: pick the body processor (ctl:requestBodyProcessor, else the
// Content-Type as ModSecurity v2 does: urlencoded and multipart only), apply the body limits,
// and run the processor from the registry.
//
// Limits (security review M2: a body must not hold the worker much longer than the time budget):
// SecRequestBodyLimit on the whole body; SecRequestBodyNoFilesLimit on the whole body for every
// processor but MULTIPART, and on MULTIPART's part headers and field values (as ModSecurity counts
// them); over either, SecRequestBodyLimitAction Reject refuses with 413 (`overLimit`, its message
// in `limitMessage`), ProcessPartial keeps what was read with INBOUND_DATA_ERROR. SecArgumentsLimit
// counts the query's arguments too, so the body may add what is left. The processors stop where a
// limit is reached, and tick the time budget's checkpoint (`checkpoint`) as they go.
import type { BodyProcessor } from '../body-processors/types.js';
import type { TransactionSettings } from '../actions/context.js';
import type { EngineSettings } from '../rules/rule-set.js';
import type { ParsedRequest } from './parsed-request.js';
import { ParsedBody, NO_BODY } from './parsed-body.js';
import { EngineBudgetExceeded } from '../budget/time-budget.js';
import { noFilesLimitMessage } from '../body-processors/multipart.js';

export interface BodyStageResult {
  body: ParsedBody;
  /** Over SecRequestBodyLimit or SecRequestBodyNoFilesLimit with SecRequestBodyLimitAction Reject. */
  overLimit: boolean;
  /** Why, when overLimit: ModSecurity's message. */
  limitMessage?: string;
  inboundDataError: boolean;
  urlencodedError: boolean;
}

/** The body processor a request gets: ctl:requestBodyProcessor, else its Content-Type's (urlencoded
 *  and multipart only, as ModSecurity v2 picks at the request headers). REQBODY_PROCESSOR from phase 1
 *  on, and kept when the body turns out empty. */
export function chosenBodyProcessor(settings: TransactionSettings, contentType: string): string {
  return settings.requestBodyProcessor ?? processorFor(contentType);
}

function processorFor(contentType: string): string {
  const ct = contentType.toLowerCase();
  if (ct.startsWith('application/x-www-form-urlencoded')) return 'URLENCODED';
  if (ct.startsWith('multipart/form-data')) return 'MULTIPART';
  return '';
}

export function readRequestBody(
  request: ParsedRequest,
  settings: TransactionSettings,
  engine: Readonly<EngineSettings>,
  processors: ReadonlyMap<string, BodyProcessor>,
  checkpoint?: () => void,
): BodyStageResult {
  const none = { body: NO_BODY, overLimit: false, inboundDataError: false, urlencodedError: false };
  const raw = request.body;
  if (!settings.requestBodyAccess || raw === undefined || raw.length === 0) return none;
  const contentType = request.header('content-type') ?? '';
  const processor = chosenBodyProcessor(settings, contentType);
  const multipart = processor === 'MULTIPART';
  const limit = multipart ? settings.requestBodyLimit : Math.min(settings.requestBodyLimit, engine.requestBodyNoFilesLimit);
  const reject = engine.requestBodyLimitAction === 'Reject';
  let buffer = raw;
  let inboundDataError = false;
  if (buffer.length > limit) {
    inboundDataError = true;
    if (reject) return { ...none, overLimit: true, limitMessage: limitMessage(limit, multipart || limit < engine.requestBodyNoFilesLimit), inboundDataError };
    buffer = buffer.subarray(0, limit);
  }
  const run = processor === '' ? undefined : processors.get(processor);
  let result;
  try {
    result = run?.(buffer, contentType, {
      maxBytes: limit,
      maxArgs: Math.max(0, engine.argumentsLimit - request.argsGet.entries.length),
      maxJsonDepth: engine.requestBodyJsonDepthLimit,
      maxNoFilesBytes: multipart ? engine.requestBodyNoFilesLimit : undefined,
      checkpoint,
    });
  } catch (err) {
    if (err instanceof EngineBudgetExceeded) throw err;
    result = { args: [], files: [], error: `${processor} parser failed: ${(err as Error).message}` };
  }
  if (result?.noFilesOverLimit) {
    inboundDataError = true;
    if (reject) return { ...none, overLimit: true, limitMessage: result.error, inboundDataError };
  }
  // ModSecurity v2 keeps REQUEST_BODY for the URLENCODED processor, and for a body no
  // processor claimed when forceRequestBodyVariable is on; never for MULTIPART, JSON or XML.
  const exposeRaw = processor === 'URLENCODED' || (processor === '' && settings.forceRequestBodyVariable);
  const body = new ParsedBody(processor, exposeRaw ? buffer.toString('latin1') : undefined, buffer.length, result);
  return { body, overLimit: false, inboundDataError, urlencodedError: processor === 'URLENCODED' && result?.error !== undefined };
}

/** ModSecurity's messages for a body over its limits (msc_reqbody.c, apache2_io.c). */
function limitMessage(limit: number, wholeBody: boolean): string {
  return wholeBody ? `Request body (Content-Length) is larger than the configured limit (${limit}).` : noFilesLimitMessage(limit);
}
