// Phase 2's first step: pick the body processor (ctl:requestBodyProcessor, else the
// Content-Type as ModSecurity v2 does: urlencoded and multipart only), apply the body limits,
// and run the processor from the registry.
import type { BodyProcessor } from '../body-processors/types.js';
import type { TransactionSettings } from '../actions/context.js';
import type { EngineSettings } from '../rules/rule-set.js';
import type { ParsedRequest } from './parsed-request.js';
import { ParsedBody, NO_BODY } from './parsed-body.js';

export interface BodyStageResult {
  body: ParsedBody;
  /** Over SecRequestBodyLimit with SecRequestBodyLimitAction Reject. */
  overLimit: boolean;
  inboundDataError: boolean;
  urlencodedError: boolean;
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
): BodyStageResult {
  const none = { body: NO_BODY, overLimit: false, inboundDataError: false, urlencodedError: false };
  const raw = request.body;
  if (!settings.requestBodyAccess || raw === undefined || raw.length === 0) return none;
  const contentType = request.header('content-type') ?? '';
  const processor = settings.requestBodyProcessor ?? processorFor(contentType);
  const limit = processor === 'MULTIPART' ? settings.requestBodyLimit : Math.min(settings.requestBodyLimit, engine.requestBodyNoFilesLimit);
  let buffer = raw;
  let inboundDataError = false;
  if (buffer.length > limit) {
    inboundDataError = true;
    if (engine.requestBodyLimitAction === 'Reject') return { ...none, overLimit: true, inboundDataError };
    buffer = buffer.subarray(0, limit);
  }
  const run = processor === '' ? undefined : processors.get(processor);
  let result;
  try {
    result = run?.(buffer, contentType, { maxBytes: limit, maxArgs: engine.argumentsLimit });
  } catch (err) {
    result = { args: [], files: [], error: `${processor} parser failed: ${(err as Error).message}` };
  }
  // ModSecurity v2 keeps REQUEST_BODY for the URLENCODED processor, and for a body no
  // processor claimed when forceRequestBodyVariable is on; never for MULTIPART, JSON or XML.
  const exposeRaw = processor === 'URLENCODED' || (processor === '' && settings.forceRequestBodyVariable);
  const body = new ParsedBody(processor, exposeRaw ? buffer.toString('latin1') : undefined, buffer.length, result);
  return { body, overLimit: false, inboundDataError, urlencodedError: processor === 'URLENCODED' && result?.error !== undefined };
}
