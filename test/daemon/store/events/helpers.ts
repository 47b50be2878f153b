// Shared by the event store tests: temporary directories, entry factories, a logger that
// remembers what it was told.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EventLogger } from '../../../../daemon/store/events/event-logger.js';
import type { NewAccessEntry, NewWafEvent } from '../../../../shared/schemas/events.js';

export function tempDir(prefix = 'wafctl-events-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface LogRecord {
  level: 'info' | 'warn' | 'error';
  msg: string;
  fields?: Record<string, unknown>;
}

export function memoryLogger(): EventLogger & { records: LogRecord[] } {
  const records: LogRecord[] = [];
  return {
    records,
    info: (msg, fields) => records.push({ level: 'info', msg, fields }),
    warn: (msg, fields) => records.push({ level: 'warn', msg, fields }),
    error: (msg, fields) => records.push({ level: 'error', msg, fields }),
  };
}

export const NOW = Date.UTC(2026, 10, 21, 12, 30, 0);

export function wafEvent(over: Partial<NewWafEvent> = {}): NewWafEvent {
  return {
    site_id: 1,
    timestamp_ms: NOW - 60_000,
    host: 'shop.example',
    client_ip: '203.0.113.7',
    uri: '/wp-login.php',
    method: 'POST',
    waf_file: 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
    rule_id: '942100',
    severity: 'CRITICAL',
    msg: 'SQL Injection Attack Detected via libinjection',
    group: 'crs',
    ...over,
  };
}

export function accessEntry(over: Partial<NewAccessEntry> = {}): NewAccessEntry {
  return {
    site_id: 1,
    timestamp: Math.floor((NOW - 60_000) / 1000),
    host: 'shop.example',
    client_ip: '198.51.100.1',
    uri: '/',
    method: 'GET',
    status: 200,
    bytes_sent: 512,
    ...over,
  };
}

/** Every JSON line of the segments of one kind in `dir`. */
export function segmentLines(dir: string, kind: 'waf' | 'access'): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const f of fs.readdirSync(dir).sort()) {
    if (!f.startsWith(`${kind}-`) || !f.endsWith('.jsonl')) continue;
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) if (line) out.push(JSON.parse(line));
  }
  return out;
}
