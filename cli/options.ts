// Parsers for option values, so a bad value is a usage error (exit 2) before anything runs.
import { InvalidArgumentError } from 'commander';
import { resolve } from 'node:path';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('must be a port number 0-65535 (0: any free port).');
  return port;
}

export function parsePositiveInt(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1) throw new InvalidArgumentError('must be a whole number of at least 1.');
  return n;
}

/** Paths handed to the daemon are made absolute: it may not share our working directory. */
export function parsePath(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty.');
  return resolve(value);
}

/** For repeatable options: `--alias a --alias b` gives ['a', 'b']. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

const DURATION = /^(\d+)(m|h|d)?$/;
const MINUTES = { m: 1, h: 60, d: 1_440 } as const;

/** A duration as minutes: `90` or `90m`, `12h`, `7d` (ban lengths and windows). */
export function parseMinutes(value: string): number {
  const m = DURATION.exec(value.trim());
  const minutes = m ? Number(m[1]) * MINUTES[(m[2] ?? 'm') as keyof typeof MINUTES] : NaN;
  if (!Number.isSafeInteger(minutes) || minutes < 1) throw new InvalidArgumentError('must be a duration like 30m, 12h or 7d (at least a minute).');
  return minutes;
}
