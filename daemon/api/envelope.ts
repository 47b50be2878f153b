import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import secureJsonParse from 'secure-json-parse';
import type { z } from 'zod';
import { ERRORS, WafctlError, errorBody, type ErrorCode } from '../../shared/errors.js';
import { describeIssues } from '../../shared/schemas/issues.js';
import { answerClientErrors } from './client-error.js';
import { RouteIndex } from './route-index.js';

// The JSON envelope every fastify server of the daemon speaks (admin socket, management API):
// errors are {success:false, error, message} with the status of shared/errors.ts; unknown paths are
// 404 not_found, known paths with another method 405 method_not_allowed; requests the HTTP parser
// refuses get 400 bad_request in the same shape; 5xx details go to the log only.
// Call installEnvelope before registering routes.

export function installEnvelope(app: FastifyInstance): RouteIndex {
  const index = RouteIndex.attach(app);
  acceptEmptyJson(app);
  answerClientErrors(app.server);

  INDEXES.set(app.server, index);
  answerNotFound(app);

  app.setErrorHandler((error: FastifyError | WafctlError | Error, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof WafctlError) return sendError(reply, error.code, error.message);
    const known = fastifyErrorCode(error as FastifyError);
    if (known) return sendError(reply, known.code, known.message);
    const errno = (error as NodeJS.ErrnoException).code;
    if (errno === 'ENOSPC' || errno === 'EDQUOT') {
      request.log.error({ err: error }, `request failed: disk full (${errno}) writing ${(error as NodeJS.ErrnoException).path ?? 'a file'}`);
      return sendError(reply, 'disk_full');
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 'internal_error');
  });

  return index;
}

const INDEXES = new WeakMap<object, RouteIndex>();

/**
 * Constructor options for every fastify server that speaks the envelope: errors fastify raises
 * before routing (a URL that does not decode, a path parameter over maxParamLength) get the
 * envelope too, instead of fastify's own {error, code, statusCode} body.
 */
export const ENVELOPE_SERVER_OPTIONS = {
  frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
    const message = error.code === 'FST_ERR_BAD_URL' ? 'the request path is not a valid URL (a broken %-escape?)' : error.message;
    void sendError(reply, 'bad_request', message);
  },
};

/**
 * Unknown paths get 404 not_found, known paths with another method 405 method_not_allowed. A plugin
 * registered with a prefix calls this in its own context too, so its hooks (the management API's
 * rate-limit headers) also run for the unknown paths under its prefix.
 */
export function answerNotFound(app: FastifyInstance): void {
  const index = INDEXES.get(app.server);
  if (index === undefined) throw new Error('installEnvelope must run before answerNotFound');
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0];
    const allowed = index.allowedMethods(path);
    if (allowed.length > 0) {
      return sendError(reply.header('allow', allowed.join(', ')), 'method_not_allowed', `${request.method} is not allowed on ${path}; use ${allowed.join(', ')}`);
    }
    return sendError(reply, 'not_found', `no route ${request.method} ${path}`);
  });
}

export function sendError(reply: FastifyReply, code: ErrorCode, message?: string): FastifyReply {
  return reply.code(ERRORS[code].status).type('application/json; charset=utf-8').send(errorBody(code, message));
}

/** Parses a request part with a zod schema, or throws validation_error naming the field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, what = 'body'): z.output<S> {
  const parsed = schema.safeParse(value ?? (what === 'body' ? {} : value));
  if (!parsed.success) throw new WafctlError('validation_error', describeIssues(parsed.error));
  return parsed.data;
}

function fastifyErrorCode(error: FastifyError): { code: ErrorCode; message: string } | null {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: 'unsupported_media_type', message: ERRORS.unsupported_media_type.message };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { code: 'payload_too_large', message: ERRORS.payload_too_large.message };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: 'bad_request', message: 'the request body is not valid JSON' };
  }
  if (error instanceof SyntaxError) return { code: 'bad_request', message: 'the request body is not valid JSON' };
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) return { code: 'bad_request', message: error.message };
  return null;
}

// Clients send Content-Type: application/json on every request, GET and DELETE with an empty body
// included: an empty JSON body is "no body", not an error. Keys that would poison a
// prototype (__proto__, constructor.prototype) are refused, never merged into anything.
function acceptEmptyJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers(); // JSON only: text/plain and the rest get 415
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = (body as string).trim();
    if (text === '') return done(null, undefined);
    try {
      done(null, secureJsonParse.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const error = new SyntaxError('the request body is not valid JSON') as SyntaxError & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });
}
