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

export function createDaemonLogger(file: string, level = process.env.WAFCTL_LOG_LEVEL ?? 'info'): Logger {
  const destination = pino.destination({ dest: file, mkdir: true, sync: false });
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { pid: process.pid } }, destination);
}

/** Writes out buffered lines; call before the process exits. */
export function flushLogger(logger: Logger): void {
  try {
    logger.flush();
  } catch {
    // A log that cannot be flushed must not stop a clean shutdown.
  }
}
