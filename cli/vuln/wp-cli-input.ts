// `wafctl vuln check --from-wp-cli FILE|-`: turns what WP-CLI prints into a check request.
// Accepted input (the command reads a file or stdin; this module only sees the text):
//
// 1. The three commands' output one after the other, in this order:
//      { wp core version --extra; wp plugin list --format=json; wp theme list --format=json; } > site.txt
//    `wp core version --extra` prints text ("WordPress version: 6.4.2" among other lines);
//    plain `wp core version` prints the bare version. The first JSON array is the plugins, the
//    second the themes (their items look alike, so the order decides).
// 2. One JSON object: {"core": "6.4.2" | {"version": "6.4.2"} | "<text of core version --extra>",
//    "plugins": [<wp plugin list items>], "themes": [<wp theme list items>]}, or a check request
//    body itself ({"cms_version", "plugins": [{slug, version}], "themes": [...]}).
//
// List items use WP-CLI's fields: `name` (the slug), `version`, `status`. Drop-ins are not
// wordpress.org software and are left out; an item without a version is left out with a warning.

import type { VulnCheckRequestInput } from '../../shared/schemas/vulndb.js';

export type WpCliInput = { ok: true; request: VulnCheckRequestInput; warnings: string[] } | { ok: false; message: string };

interface Component {
  slug: string;
  version: string;
}

const CORE_LINE = /^\s*WordPress version:\s*(\S+)\s*$/im;
const BARE_VERSION = /^\s*v?\d[0-9A-Za-z.+_-]*\s*$/;

export function parseWpCliInput(text: string): WpCliInput {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, message: 'the WP-CLI input is empty' };
  if (trimmed.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch (err) {
      return { ok: false, message: `the WP-CLI input starts with '{' but is not valid JSON: ${(err as Error).message}` };
    }
    return fromObject(value as Record<string, unknown>);
  }
  return fromConcatenated(text);
}

function fromObject(obj: Record<string, unknown>): WpCliInput {
  if (typeof obj.cms_version === 'string') {
    return { ok: true, request: obj as unknown as VulnCheckRequestInput, warnings: [] };
  }
  const core = coreVersionOf(obj.core);
  if (core === null) return { ok: false, message: 'no WordPress version: give "core" as "6.4.2", {"version": "6.4.2"} or the text of `wp core version --extra`' };
  const warnings: string[] = [];
  const plugins = listOf(obj.plugins, 'plugins', warnings);
  const themes = listOf(obj.themes, 'themes', warnings);
  if (plugins === null || themes === null) return { ok: false, message: warnings.pop() ?? 'bad plugins or themes' };
  return { ok: true, request: { cms_version: core, plugins, themes }, warnings };
}

function fromConcatenated(text: string): WpCliInput {
  const arrays: unknown[] = [];
  const rest: string[] = [];
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf('[', i);
    if (open < 0) {
      rest.push(text.slice(i));
      break;
    }
    rest.push(text.slice(i, open));
    const close = matchingBracket(text, open);
    if (close < 0) return { ok: false, message: `a JSON list starting at character ${open} never closes (was the output cut short?)` };
    try {
      arrays.push(JSON.parse(text.slice(open, close + 1)));
    } catch (err) {
      return { ok: false, message: `the JSON list starting at character ${open} is not valid: ${(err as Error).message}` };
    }
    i = close + 1;
  }
  const core = coreVersionOf(rest.join('\n'));
  if (core === null) {
    return { ok: false, message: 'no WordPress version found: the input should start with the output of `wp core version --extra`' };
  }
  if (arrays.length > 2) return { ok: false, message: `expected at most two JSON lists (plugins, then themes), found ${arrays.length}` };
  const warnings: string[] = [];
  const plugins = listOf(arrays[0] ?? [], 'plugins', warnings);
  const themes = listOf(arrays[1] ?? [], 'themes', warnings);
  if (plugins === null || themes === null) return { ok: false, message: warnings.pop() ?? 'bad plugins or themes' };
  return { ok: true, request: { cms_version: core, plugins, themes }, warnings };
}

function coreVersionOf(value: unknown): string | null {
  if (typeof value === 'object' && value !== null && typeof (value as { version?: unknown }).version === 'string') {
    return ((value as { version: string }).version).trim() || null;
  }
  if (typeof value !== 'string') return null;
  const line = CORE_LINE.exec(value);
  if (line) return line[1];
  const lines = value.split(/\r?\n/).filter((l) => l.trim() !== '');
  return lines.length > 0 && BARE_VERSION.test(lines[0]) ? lines[0].trim() : null;
}

/** A WP-CLI list as check items; null (with the reason pushed to warnings) when it is not a list of objects. */
function listOf(value: unknown, what: 'plugins' | 'themes', warnings: string[]): Component[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    warnings.push(`${what} must be the JSON list printed by \`wp ${what === 'plugins' ? 'plugin' : 'theme'} list --format=json\``);
    return null;
  }
  const out: Component[] = [];
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'object' || item === null) {
      warnings.push(`${what}[${i}] is not an object with name and version`);
      return null;
    }
    const { name, slug, version, status } = item as Record<string, unknown>;
    const id = typeof slug === 'string' ? slug : name;
    if (typeof id !== 'string' || id.trim() === '') {
      warnings.push(`${what}[${i}] has no name`);
      return null;
    }
    if (status === 'dropin') continue;
    if (typeof version !== 'string' || version.trim() === '') {
      warnings.push(`${what === 'plugins' ? 'plugin' : 'theme'} ${id} has no version and was not checked`);
      continue;
    }
    out.push({ slug: id, version });
  }
  return out;
}

/** The index of the `]` closing the `[` at `open`, skipping strings; -1 if it never closes. */
function matchingBracket(text: string, open: number): number {
  let depth = 0;
  let inString = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return c === ']' ? i : -1;
    }
  }
  return -1;
}
