import { describe, expect, it } from 'vitest';
import { parseWpCliInput } from '../../../cli/vuln/wp-cli-input.js';
import { parseComponentArgs } from '../../../cli/vuln/component-args.js';
import { parseCheckRequest } from '../../../daemon/vulndb/vulndb.js';

// What WP-CLI 2.x prints for these commands.
const CORE_EXTRA = `WordPress version: 6.4.2
Database revision: 56657
TinyMCE version:   4.9110 (49110-20201110)
Package language:  en_US
`;
const PLUGINS = JSON.stringify([
  { name: 'akismet', status: 'active', update: 'available', version: '5.3', update_version: '5.3.1', auto_update: 'off' },
  { name: 'contact-form-7', status: 'inactive', update: 'none', version: '5.8.4', update_version: '', auto_update: 'off' },
  { name: 'advanced-cache.php', status: 'dropin', update: 'none', version: '', update_version: '', auto_update: 'off' },
  { name: 'site-tweaks', status: 'must-use', update: 'none', version: '', update_version: '', auto_update: 'off' },
]);
const THEMES = JSON.stringify([
  { name: 'astra', status: 'active', update: 'none', version: '4.6.8', update_version: '', auto_update: 'off' },
  { name: 'twentytwentyfour', status: 'inactive', update: 'none', version: '1.0', update_version: '', auto_update: 'off' },
]);

describe('parseWpCliInput', () => {
  it('reads the three commands concatenated: core text, plugin list, theme list', () => {
    const r = parseWpCliInput(`${CORE_EXTRA}${PLUGINS}\n${THEMES}\n`);
    expect(r).toEqual({
      ok: true,
      request: {
        cms_version: '6.4.2',
        plugins: [
          { slug: 'akismet', version: '5.3' },
          { slug: 'contact-form-7', version: '5.8.4' },
        ],
        themes: [
          { slug: 'astra', version: '4.6.8' },
          { slug: 'twentytwentyfour', version: '1.0' },
        ],
      },
      warnings: ['plugin site-tweaks has no version and was not checked'],
    });
    // and the result is a valid check request body
    expect(parseCheckRequest((r as { request: unknown }).request).ok).toBe(true);
  });

  it('reads a bare `wp core version` line and plugins only', () => {
    const r = parseWpCliInput(`6.5.1\n${PLUGINS}`);
    expect(r.ok && r.request.cms_version).toBe('6.5.1');
    expect(r.ok && r.request.themes).toEqual([]);
  });

  it('reads a JSON object with core as a string, an object or the --extra text', () => {
    for (const core of ['6.4.2', { version: '6.4.2' }, CORE_EXTRA]) {
      const r = parseWpCliInput(JSON.stringify({ core, plugins: JSON.parse(PLUGINS), themes: JSON.parse(THEMES) }));
      expect(r.ok).toBe(true);
      expect(r.ok && r.request.cms_version).toBe('6.4.2');
      expect(r.ok && r.request.plugins).toHaveLength(2);
    }
  });

  it('passes a check request body through unchanged', () => {
    const body = { cms_version: '6.4.2', plugins: [{ slug: 'akismet', version: '5.3' }] };
    expect(parseWpCliInput(JSON.stringify(body))).toEqual({ ok: true, request: body, warnings: [] });
  });

  it('keeps brackets inside strings from confusing the list finder', () => {
    const plugins = JSON.stringify([{ name: 'weird-[plugin]', status: 'active', version: '1.0]' }]);
    const r = parseWpCliInput(`${CORE_EXTRA}${plugins}`);
    expect(r.ok && r.request.plugins).toEqual([{ slug: 'weird-[plugin]', version: '1.0]' }]);
  });

  it('refuses input it cannot read, saying why', () => {
    const bad: [string, RegExp][] = [
      ['', /empty/],
      [PLUGINS, /no WordPress version/],
      [`${CORE_EXTRA}[{"name": "x", "version": "1"`, /never closes/],
      [`${CORE_EXTRA}[{"name": x}]`, /not valid/],
      [`${CORE_EXTRA}${PLUGINS}${THEMES}[]`, /at most two JSON lists/],
      ['{"core": 6}', /no WordPress version/],
      ['{"core": "6.4", "plugins": {"akismet": "5.3"}}', /wp plugin list --format=json/],
      ['{"core": "6.4", "themes": ["astra"]}', /themes\[0\]/],
      ['{"core": "6.4", ', /not valid JSON/],
    ];
    for (const [text, message] of bad) {
      const r = parseWpCliInput(text);
      expect(r.ok, text).toBe(false);
      expect(!r.ok && r.message).toMatch(message);
    }
  });
});

describe('parseComponentArgs', () => {
  it('splits SLUG@VERSION at the last @', () => {
    expect(parseComponentArgs(['contact-form-7@5.8', ' astra @ 4.1 '], '--plugin')).toEqual({
      ok: true,
      items: [
        { slug: 'contact-form-7', version: '5.8' },
        { slug: 'astra', version: '4.1' },
      ],
    });
  });

  it('refuses a value without slug or version', () => {
    for (const v of ['akismet', '@5.3', 'akismet@', '']) {
      const r = parseComponentArgs([v], '--theme');
      expect(r.ok).toBe(false);
      expect(!r.ok && r.message).toMatch(/--theme .*SLUG@VERSION/);
    }
  });
});
