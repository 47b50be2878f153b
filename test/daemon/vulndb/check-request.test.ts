// Request validation (README §3): what becomes a 422 validation_error, with a message naming the field.

import { describe, expect, it } from 'vitest';
import { parseCheckRequest } from '../../../daemon/vulndb/vulndb.js';
import { MAX_PLUGINS, MAX_THEMES } from '../../../shared/schemas/vulndb.js';

function errorsOf(body: unknown): string[] {
  const r = parseCheckRequest(body);
  if (r.ok) throw new Error(`expected a validation error for ${JSON.stringify(body).slice(0, 80)}`);
  expect(r.message.length).toBeGreaterThan(0);
  return r.errors;
}

const item = (slug: string, version = '1.0') => ({ slug, version });

describe('parseCheckRequest', () => {
  it('accepts a minimal body and defaults plugins and themes to empty lists', () => {
    expect(parseCheckRequest({ cms_version: '6.4.2' })).toEqual({ ok: true, request: { cms_version: '6.4.2', plugins: [], themes: [] } });
  });

  it('normalises slugs and versions and ignores unknown fields', () => {
    const r = parseCheckRequest({ cms_version: 'v6.4', plugins: [{ slug: ' Akismet ', version: ' 5.0 ', extra: 1 }], site: 'x' });
    expect(r).toEqual({ ok: true, request: { cms_version: '6.4', plugins: [{ slug: 'akismet', version: '5.0' }], themes: [] } });
  });

  it('requires cms_version as a non-empty string of at most 64 characters', () => {
    expect(errorsOf({})).toEqual(['cms_version: is required']);
    expect(errorsOf({ cms_version: 6.4 })).toEqual(['cms_version: must be a string']);
    expect(errorsOf({ cms_version: '   ' })).toEqual(['cms_version: must not be empty']);
    expect(parseCheckRequest({ cms_version: 'v' + '1'.repeat(64) }).ok).toBe(true); // 64 after the v is stripped
    expect(errorsOf({ cms_version: '1'.repeat(65) })).toEqual(['cms_version: must be at most 64 characters']);
  });

  it('rejects empty and over-long slugs and versions, naming the item', () => {
    expect(errorsOf({ cms_version: '6.4', plugins: [item('ok'), item('')] })).toEqual(['plugins.1.slug: must not be empty']);
    expect(errorsOf({ cms_version: '6.4', themes: [item('a'.repeat(65))] })).toEqual(['themes.0.slug: must be at most 64 characters']);
    expect(errorsOf({ cms_version: '6.4', plugins: [item('ok', '1'.repeat(65))] })).toEqual(['plugins.0.version: must be at most 64 characters']);
    expect(errorsOf({ cms_version: '6.4', plugins: [item('ok', ' ')] })).toEqual(['plugins.0.version: must not be empty']);
    expect(errorsOf({ cms_version: '6.4', plugins: [{ slug: 'ok' }] })).toEqual(['plugins.0.version: is required']);
    expect(errorsOf({ cms_version: '6.4', plugins: ['akismet'] })).toEqual(['plugins.0: must be an object with slug and version']);
  });

  it('limits plugins to 500 and themes to 200 per request', () => {
    const plugins = Array.from({ length: MAX_PLUGINS }, (_, i) => item(`p${i}`));
    const themes = Array.from({ length: MAX_THEMES }, (_, i) => item(`t${i}`));
    expect(parseCheckRequest({ cms_version: '6.4', plugins, themes }).ok).toBe(true);
    expect(errorsOf({ cms_version: '6.4', plugins: [...plugins, item('one-more')] })).toEqual(['plugins: at most 500 plugins per request']);
    expect(errorsOf({ cms_version: '6.4', themes: [...themes, item('one-more')] })).toEqual(['themes: at most 200 themes per request']);
  });

  it('rejects bodies that are not objects and lists that are not arrays', () => {
    expect(errorsOf(null)).toEqual(['(body): the body must be a JSON object']);
    expect(errorsOf([])).toEqual(['(body): the body must be a JSON object']);
    expect(errorsOf({ cms_version: '6.4', plugins: {} })).toEqual(['plugins: must be an array of {slug, version}']);
    expect(errorsOf({ cms_version: '6.4', themes: null })).toEqual(['themes: must be an array of {slug, version}']);
  });
});
