import { describe, expect, it } from 'vitest';
import { AccessEntryInSchema, describeIssues, WafEventInSchema } from '../../../shared/schemas/ingest.js';

const wafEvent = {
  timestamp_ms: 1_763_700_000_000,
  host: 'example.test',
  client_ip: '203.0.113.7',
  uri: '/?id=1%27%20or%201=1',
  method: 'GET',
  waf_file: '/usr/share/modsecurity-crs/rules/REQUEST-942-APPLICATION-ATTACK-SQLI.conf',
  rule_id: '942100',
  severity: 'CRITICAL',
  msg: 'SQL Injection Attack Detected via libinjection',
};
const accessEntry = {
  timestamp: 1_763_700_000,
  host: 'example.test',
  client_ip: '2001:db8::7',
  uri: '/',
  method: 'GET',
  status: 200,
  bytes_sent: 512,
};

describe('WafEventInSchema', () => {
  it('accepts the spec shape and drops unknown fields', () => {
    const parsed = WafEventInSchema.parse({ ...wafEvent, extra: 'ignored' });
    expect(parsed).not.toHaveProperty('extra');
  });

  it.each([
    ['timestamp as a string', { timestamp_ms: '1763700000000' }, 'timestamp_ms'],
    ['timestamp in seconds', { timestamp_ms: 1_763_700_000 }, 'timestamp_ms'],
    ['unknown severity', { severity: 'HIGH' }, 'severity'],
    ['bad client ip', { client_ip: '999.1.1.1' }, 'client_ip'],
    ['method with spaces', { method: 'GET X' }, 'method'],
  ])('refuses %s', (_name, patch, field) => {
    const result = WafEventInSchema.safeParse({ ...wafEvent, ...patch });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!)).toContain(`${field}:`);
  });

  it('names every missing required field', () => {
    const result = WafEventInSchema.safeParse({});
    expect(result.success).toBe(false);
    const text = describeIssues(result.error!);
    for (const field of ['timestamp_ms', 'host', 'client_ip', 'uri', 'method', 'waf_file', 'rule_id', 'severity', 'msg']) {
      expect(text).toContain(`${field}:`);
    }
  });
});

describe('AccessEntryInSchema', () => {
  it('accepts the spec shape', () => {
    expect(AccessEntryInSchema.safeParse({ ...accessEntry, request_time: 0.012 }).success).toBe(true);
  });

  it.each([
    ['timestamp in milliseconds', { timestamp: 1_763_700_000_000 }],
    ['fractional timestamp', { timestamp: 1_763_700_000.5 }],
    ['status out of range', { status: 700 }],
    ['negative bytes', { bytes_sent: -1 }],
    ['negative request_time', { request_time: -0.1 }],
  ])('refuses %s', (_name, patch) => {
    expect(AccessEntryInSchema.safeParse({ ...accessEntry, ...patch }).success).toBe(false);
  });
});
