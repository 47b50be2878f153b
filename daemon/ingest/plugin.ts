import { WafctlError } from '../../shared/errors.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AccessEntryIn, WafEventIn } from '../../shared/schemas/ingest.js';
import { decide, rateLimitHeaders, type RateDecision, type WindowCounter } from '../api/rate-limit.js';
import { entriesOf, splitBatch, type EntryError, type EntryRules } from './batch.js';
import { ENTRY_CHECKS } from './entry-check.js';
import { useIngestJsonParser } from './json-body.js';
import { ruleGroupOf, type RuleGroup } from './rule-group.js';

// POST /api/vector/waf and /api/vector/access (spec sections 2.8, 2.9, 4, 7, 8). Answers use the
// ingestion shapes, not the management envelope. An acknowledged entry is on disk: the store's
// append resolves only after fsync, and a failed append stores nothing of the request.

export const INGEST_BODY_LIMIT = 10 * 1024 * 1024;
export const INGEST_REQUESTS_PER_MINUTE = 100;

export interface IngestCaller {
  accountId: string;
  tokenId: string;
}

export type StoredWafInput = WafEventIn & { site_id: number; group: RuleGroup };
export type StoredAccessInput = AccessEntryIn & { site_id: number };

export interface IngestDependencies {
  /** The caller for a clear token, or null when it is unknown, revoked, or its account has no API access. */
  authenticate(token: string): IngestCaller | null;
  /** The site id for a host of the caller's account, or why the host is not accepted. */
  siteOf(accountId: string, host: string): { siteId: number } | { problem: string };
  storeWaf(entries: StoredWafInput[]): Promise<void>;
  storeAccess(entries: StoredAccessInput[]): Promise<void>;
  counter: WindowCounter;
  now(): number;
  /** Requests per minute per token and endpoint; the spec's 100 unless the operator set another. */
  requestsPerMinute?: number;
}

interface Endpoint<In extends { host: string }, Stored> {
  path: string;
  kind: 'waf' | 'access';
  rules: EntryRules<In>;
  /** Completes the entry the rules built (a fresh object of ours, so it is completed in place). */
  toStored(entry: In, siteId: number): Stored;
  store(deps: IngestDependencies, entries: Stored[]): Promise<void>;
}

const wafEndpoint: Endpoint<WafEventIn, StoredWafInput> = {
  path: '/api/vector/waf',
  kind: 'waf',
  rules: ENTRY_CHECKS.waf,
  toStored(entry, siteId) {
    const stored = entry as StoredWafInput;
    stored.site_id = siteId;
    stored.group = ruleGroupOf(entry.waf_file, entry.rule_id);
    return stored;
  },
  store: (deps, entries) => deps.storeWaf(entries),
};

const accessEndpoint: Endpoint<AccessEntryIn, StoredAccessInput> = {
  path: '/api/vector/access',
  kind: 'access',
  rules: ENTRY_CHECKS.access,
  toStored(entry, siteId) {
    const stored = entry as StoredAccessInput;
    stored.site_id = siteId;
    return stored;
  },
  store: (deps, entries) => deps.storeAccess(entries),
};

const BEARER = /^Bearer ([A-Za-z0-9_\-.~+/]{8,256}=*)$/;

declare module 'fastify' {
  interface FastifyRequest {
    ingestCaller?: IngestCaller;
  }
}

function fail(reply: FastifyReply, status: number, message: string, errors: string[]): FastifyReply {
  return reply.code(status).send({ message, errors });
}

export async function ingestPlugin(app: FastifyInstance, opts: { deps: IngestDependencies }): Promise<void> {
  const { deps } = opts;
  useIngestJsonParser(app);

  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const status = error.statusCode ?? 500;
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return fail(reply, 413, 'Request body too large', [`body exceeds ${INGEST_BODY_LIMIT} bytes`]);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return fail(reply, 415, 'Unsupported media type', ['Content-Type must be application/json']);
    }
    if (status >= 400 && status < 500) {
      return fail(reply, 400, 'Invalid request format', [`body: ${error.message}`]);
    }
    // Cluster mode: PostgreSQL unreachable, the batch is not acknowledged; the client retries.
    if (error instanceof WafctlError && error.code === 'store_unavailable') {
      return fail(reply, 503, 'Service unavailable', [`${error.message} The entries were not acknowledged.`]);
    }
    request.log.error({ err: error }, 'ingestion failed');
    return fail(reply, 500, 'Internal server error', ['the entries were not stored; retry later']);
  });

  for (const endpoint of [wafEndpoint, accessEndpoint] as Array<Endpoint<{ host: string }, unknown>>) {
    app.post(endpoint.path, {
      bodyLimit: INGEST_BODY_LIMIT,
      // Not a log line per request: shippers send hundreds a second, and the two info lines fastify
      // writes for each cost more CPU than validating the entries. Failures are still logged.
      logLevel: 'warn',
      onRequest: (request, reply, done) => admit(deps, endpoint.kind, request, reply, done),
      handler: (request, reply) => ingest(deps, endpoint, request, reply),
    });
  }
}

function admit(
  deps: IngestDependencies,
  kind: string,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const header = request.headers.authorization;
  if (header === undefined) return void fail(reply, 401, 'Unauthorized', ['missing Authorization: Bearer token']);
  const match = BEARER.exec(header);
  if (match === null) return void fail(reply, 401, 'Unauthorized', ['malformed Authorization header: expected Bearer <token>']);
  const caller = deps.authenticate(match[1]);
  if (caller === null) return void fail(reply, 401, 'Unauthorized', ['invalid or revoked token, or API access is disabled']);

  const limit = deps.requestsPerMinute ?? INGEST_REQUESTS_PER_MINUTE;
  const decision = decide(deps.counter, `ingest:${kind}:${caller.tokenId}`, limit, deps.now());
  // A cluster's counters (Redis) answer later; a node's own at once.
  if (decision instanceof Promise) decision.then((d) => admitCounted(d, caller, request, reply, done), done);
  else admitCounted(decision, caller, request, reply, done);
}

function admitCounted(
  decision: RateDecision,
  caller: IngestCaller,
  request: FastifyRequest,
  reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  reply.headers(rateLimitHeaders(decision));
  if (!decision.allowed) {
    reply.header('retry-after', String(decision.retryAfterSeconds));
    return void reply.code(429).send({ message: 'Rate limit exceeded', retry_after: decision.retryAfterSeconds });
  }

  const contentType = (request.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json') {
    return void fail(reply, 415, 'Unsupported media type', ['Content-Type must be application/json']);
  }
  request.ingestCaller = caller;
  done();
}

async function ingest(
  deps: IngestDependencies,
  endpoint: Endpoint<{ host: string }, unknown>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const caller = request.ingestCaller!;
  const entries = entriesOf(request.body);
  if (!Array.isArray(entries)) {
    if (entries.kind === 'too_many') {
      return fail(reply, 413, 'Batch too large', [`batch has ${entries.count} entries; at most 1000 are accepted`]);
    }
    return fail(reply, 400, 'Invalid request format', ['body must be a JSON object or an array of objects']);
  }
  if (entries.length === 0) return reply.code(200).send({ message: 'No entries', processed: 0 });

  // A batch usually names one or a few hosts: each is looked up once.
  const sites = new Map<string, { siteId: number } | { problem: string }>();
  const { accepted, errors } = splitBatch(entries, endpoint.rules, (host) => {
    let site = sites.get(host);
    if (site === undefined) sites.set(host, (site = deps.siteOf(caller.accountId, host.toLowerCase())));
    return 'problem' in site ? site.problem : null;
  });

  if (accepted.length === 0) {
    return fail(reply, 400, 'No valid entries', errors.map(asLine));
  }
  const stored = accepted.map(({ entry }) => endpoint.toStored(entry, (sites.get(entry.host) as { siteId: number }).siteId));
  await endpoint.store(deps, stored);

  if (errors.length === 0) {
    return reply.code(200).send({ message: `Processed ${accepted.length} entries`, processed: accepted.length });
  }
  return reply.code(207).send({
    message: `Processed ${accepted.length} of ${entries.length} entries`,
    processed: accepted.length,
    errors,
  });
}

function asLine(error: EntryError): string {
  return `[${error.index}] ${error.error}`;
}
