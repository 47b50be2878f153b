import { format } from 'node:util';

// console.error / console.warn of the daemon's own code (the edge reports a failed WAF engine, a
// failed origin pool or an event write this way) into the daemon log. Without this they were lost:
// a background daemon's stderr is closed once it is ready (shared/daemon-launcher.ts), and an edge
// worker's stdio is not connected at all. Only the daemon's entry points call this, so in-process
// tests keep the ordinary console.

export type ConsoleLevel = 'error' | 'warn';

export function routeConsoleToLog(write: (level: ConsoleLevel, message: string) => void): void {
  console.error = (...args: unknown[]) => write('error', format(...args));
  console.warn = (...args: unknown[]) => write('warn', format(...args));
}
