import { describe, expect, it } from 'vitest';
import { compilePrefixTable, normalizePath } from '../../../daemon/proxy/path-prefix.js';

describe('normalizePath', () => {
  it.each([
    ['/wp-admin/?x=1', '/wp-admin/'],
    ['/./wp-admin', '/wp-admin'],
    ['//wp-admin//x', '/wp-admin/x'],
    ['/a/b/../../wp-admin', '/wp-admin'],
    ['/../../wp-admin', '/wp-admin'],
    ['/%77p-admin', '/wp-admin'],
    ['/WP-ADMIN', '/wp-admin'],
    ['/a\\..\\wp-admin', '/wp-admin'],
    ['/%zz', '/%25zz'],
    ['http://host.test/wp-admin?x', '/wp-admin'],
    ['/a/.', '/a/'],
  ])('%s -> %s', (raw, normal) => expect(normalizePath(raw)).toBe(normal));
});

describe('prefix table', () => {
  const table = compilePrefixTable([
    { path: '/', value: 'root' }, { path: '/api', value: 'api' }, { path: '/api/login', value: 'login' }, { path: '/files/', value: 'files' },
  ]);
  it.each([
    ['/', 'root'], ['/x', 'root'], ['/api', 'api'], ['/api/', 'api'], ['/apix', 'root'], ['/api/login', 'login'],
    ['/api/login/x', 'login'], ['/api/loginx', 'api'], ['/files', 'root'], ['/files/a', 'files'],
  ])('%s -> %s (most specific wins, on segment boundaries)', (path, value) => expect(table.match(path)?.value).toBe(value));
  it('finds nothing in an empty table or outside every prefix', () => {
    expect(compilePrefixTable([]).match('/x')).toBeUndefined();
    expect(compilePrefixTable([{ path: '/a', value: 1 }]).match('/b')).toBeUndefined();
  });
});
