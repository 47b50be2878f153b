// The store reports recoveries and faults through an injected logger (the daemon passes its
// own); the default writes one JSON object per line to stderr.

export interface EventLogger {
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

const line = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
  process.stderr.write(JSON.stringify({ level, component: 'event-store', msg, ...fields }) + '\n');

export const stderrLogger: EventLogger = { info: line('info'), warn: line('warn'), error: line('error') };
