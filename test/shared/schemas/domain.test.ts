import { describe, expect, it } from 'vitest';
import { AddSiteBodySchema } from '../../../shared/schemas/admin.js';
import { normaliseDomain, normaliseOrigin } from '../../../shared/schemas/domain.js';
import { describeIssues } from '../../../shared/schemas/issues.js';

describe('normaliseDomain', () => {
  it.each([
    ['Example.COM', 'example.com'],
    ['example.com.', 'example.com'],
    ['  demo.localhost ', 'demo.localhost'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['a-b.c0.example', 'a-b.c0.example'],
  ])('accepts %s as %s', (input, expected) => {
    expect(normaliseDomain(input)).toEqual({ ok: true, domain: expected });
  });

  it.each([
    '', 'localhost', 'http://example.com', 'example.com:8080', 'example.com/x', '*.example.com', 'a_b.example',
    '-a.example', 'a-.example', 'ex..com', '1.2.3.4', 'xn--zz.example', 'exa mple.com', `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(127)}com`,
  ])('refuses %j', (input) => {
    const check = normaliseDomain(input);
    expect(check.ok).toBe(false);
  });
});

describe('normaliseOrigin', () => {
  it('keeps scheme, host and port', () => {
    expect(normaliseOrigin('http://127.0.0.1:8081')).toEqual({ ok: true, origin: 'http://127.0.0.1:8081' });
    expect(normaliseOrigin('HTTPS://Origin.Example/')).toEqual({ ok: true, origin: 'https://origin.example' });
    expect(normaliseOrigin('http://[::1]:9000')).toEqual({ ok: true, origin: 'http://[::1]:9000' });
  });

  it.each(['ftp://x.example', 'file:///etc/passwd', 'javascript:alert(1)', 'example.com', 'http://u:p@x.example', 'http://x.example/app', 'http://x.example?q=1', ''])(
    'refuses %j', (input) => {
      expect(normaliseOrigin(input).ok).toBe(false);
    },
  );
});

describe('AddSiteBodySchema', () => {
  it('names the field in its problem', () => {
    const parsed = AddSiteBodySchema.safeParse({ domain: 'example.test', origin: 'ftp://x', plan: 'gold' });
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    const text = describeIssues(parsed.error);
    expect(text).toContain('origin: must be an http:// or https:// URL');
    expect(text).toContain('plan:');
  });

  it('defaults plan and aliases and normalises aliases', () => {
    expect(AddSiteBodySchema.parse({ domain: 'Example.test', origin: 'http://127.0.0.1:1', aliases: ['WWW.example.test'] }))
      .toEqual({ domain: 'example.test', origin: 'http://127.0.0.1:1', aliases: ['www.example.test'], plan: 'free' });
  });

  it('refuses unknown fields', () => {
    expect(AddSiteBodySchema.safeParse({ domain: 'example.test', origin: 'http://127.0.0.1:1', key: 'x' }).success).toBe(false);
  });
});
