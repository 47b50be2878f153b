import { pino, type Logger } from 'pino';
import { openAppendOwnedSync } from './safe-open.js';
import type { WriteHealth } from '../store/write-health.js';

// The daemon's log: JSON lines in <data>/daemon.log (pino, which is also fastify's logger).
// Secrets never reach it: the API key and bearer headers are redacted wherever they appear.

export const REDACTED_PATHS = [
  'req.headers["x-service-key"]',
  'req.headers.authorization',
  'request.headers["x-service-key"]',
  'request.headers.authorization',
  'headers["x-service-key"]',
  'headers.authorization',
  '*.headers["x-service-key"]',
  '*.headers.authorization',
  // The WordPress plugin's dialect carries the same key under its own header name.
  'req.headers["x-atomicedge-key"]',
  'request.headers["x-atomicedge-key"]',
  'headers["x-atomicedge-key"]',
  '*.headers["x-atomicedge-key"]',
  'api_key',
  '*.api_key',
  'token',
  '*.token',
];

/** Unwritten log text kept while the disk refuses writes; beyond it lines are dropped. */
const MAX_PENDING_LOG_BYTES = 1 << 20;

// A secret put in a query string by mistake (`?api_key=...`) would reach the log with the URL of
// fastify's request line: its value is masked. Same fields as fastify's own request serializer.
const SECRET_QUERY = /([?&](?:api_key|apikey|key|service_key|x-service-key|x-atomicedge-key|token|access_token|password)=)[^&#]*/gi;

export function maskUrlSecrets(url: string): string {
  return url.replace(SECRET_QUERY, '$1[redacted]');
}

interface FastifyLikeRequest { raw?: unknown; method?: string; url?: string; host?: string; ip?: string; socket?: { remotePort?: number } }

const serializers = {
  req: (req: FastifyLikeRequest) => {
    if (req === null || typeof req !== 'object') return req;
    // Anything else logged under `req` keeps its fields (and meets the redaction paths above).
    if (!('raw' in req)) return typeof req.url === 'string' ? { ...req, url: maskUrlSecrets(req.url) } : req;
    return {
      method: req.method,
      url: typeof req.url === 'string' ? maskUrlSecrets(req.url) : req.url,
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
};

// Synchronous writes: the control plane logs little (the edge's per-request records go to the event
// store), and a line written before a crash or an early exit is never lost in a buffer.
// A full disk must not turn logging into a failure of the request being logged: without an 'error'
// listener the destination throws from every log call (ENOSPC), which reached clients as fastify's
// fallback 500 with the errno in it, or as a reset. Lines that cannot be written are dropped and
// counted; the count is logged once the disk takes writes again.
// `file` is the log's path, or an fd the caller opened (tests: /dev/full). `health` learns whether
// lines reach the file, for `wafctl daemon status`.
export function createDaemonLogger(file: string | number, level = process.env.WAFCTL_LOG_LEVEL ?? 'info', health?: WriteHealth): Logger {
  // 0600 whatever the umask or an older file's mode: the log names clients, hosts and paths. A link
  // in its place, or a log another user controls, is refused (safe-open.ts), not appended to.
  const fd = typeof file === 'number' ? file : openAppendOwnedSync(file, 0o600);
  const destination = pino.destination({ dest: fd, sync: true, maxLength: MAX_PENDING_LOG_BYTES });
  const logger = pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers, base: { pid: process.pid } }, destination);
  let failures = 0;
  destination.on('error', (err: unknown) => {
    failures += 1;
    health?.failed(err);
  });
  destination.on('drain', () => {
    if (failures === 0) return;
    health?.succeeded();
    const lost = failures;
    failures = 0;
    logger.warn({ write_failures: lost }, 'the log could not be written for a while (disk full?); lines were dropped');
  });
  return logger;
}

