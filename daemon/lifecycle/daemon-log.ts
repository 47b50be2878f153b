import { pino, type Logger } from 'pino';

// The daemon's log: JSON lines in <data>/daemon.log (pino, which is also fastify's logger).
// Secrets never reach it: the API key and bearer headers are redacted wherever they appear.

export const REDACTED_PATHS = [
  'req.headers["x-service-key"]',
  'req.headers.authorization',
  'headers["x-service-key"]',
  'headers.authorization',
  'api_key',
  'token',
];

// Synchronous writes: the control plane logs little (the edge's per-request records go to the event
// store), and a line written before a crash or an early exit is never lost in a buffer.
export function createDaemonLogger(file: string, level = process.env.WAFCTL_LOG_LEVEL ?? 'info'): Logger {
  const destination = pino.destination({ dest: file, mkdir: true, sync: true });
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } }, destination);
}

