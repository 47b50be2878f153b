// The body `wafctl vuln check` sends, from its flags and, with --from-wp-cli, WP-CLI's output:
// --cms-version overrides the core version read from WP-CLI, --plugin/--theme add to its lists.
// Checked locally with the request schema the daemon uses, so a bad value is a usage error
// before any network call.
import { parseComponentArgs } from '../../vuln/component-args.js';
import { parseWpCliInput } from '../../vuln/wp-cli-input.js';
import { describeIssues } from '../../../shared/schemas/issues.js';
import { VulnCheckRequestSchema, type VulnCheckRequestInput } from '../../../shared/schemas/vulndb.js';

/**
 * What a WordPress core version looks like: numbers with dots, then an optional pre-release
 * (`-beta2`, `-RC1`, `-alpha-57000`); one leading v allowed. The API takes any version string,
 * as its contract says (vulndb README section 3), and compares it PHP-style, so `banana` would
 * be read as a very old version and get every vulnerability: a typed version is checked here.
 */
const WORDPRESS_VERSION = /^[vV]?\d+(?:\.\d+){0,3}(?:-?[A-Za-z][A-Za-z0-9]*(?:[-.]?\d+)*)?$/;

export interface CheckFlags {
  cmsVersion?: string;
  plugin: string[];
  theme: string[];
}

export type BuiltRequest =
  | { ok: true; request: VulnCheckRequestInput; warnings: string[] }
  | { ok: false; usage: boolean; message: string; hint?: string };

/** `wpCliText`: the text of --from-wp-cli, when given. */
export function buildCheckRequest(flags: CheckFlags, wpCliText?: string): BuiltRequest {
  const plugins = parseComponentArgs(flags.plugin, '--plugin');
  if (!plugins.ok) return { ok: false, usage: true, message: plugins.message };
  const themes = parseComponentArgs(flags.theme, '--theme');
  if (!themes.ok) return { ok: false, usage: true, message: themes.message };

  let base: VulnCheckRequestInput | undefined;
  const warnings: string[] = [];
  if (wpCliText !== undefined) {
    const parsed = parseWpCliInput(wpCliText);
    if (!parsed.ok) return { ok: false, usage: false, message: `--from-wp-cli: ${parsed.message}` };
    base = parsed.request;
    warnings.push(...parsed.warnings);
  }
  if (flags.cmsVersion !== undefined && flags.cmsVersion.trim() !== '' && !WORDPRESS_VERSION.test(flags.cmsVersion.trim())) {
    return {
      ok: false, usage: true,
      message: `--cms-version ${flags.cmsVersion}: not a WordPress version (they look like 6.4.2, 6.5-RC1 or 6.6-beta2)`,
      hint: 'on the WordPress host, `wp core version` prints it (or pass `--from-wp-cli FILE`)',
    };
  }
  const cmsVersion = flags.cmsVersion ?? base?.cms_version;
  if (cmsVersion === undefined) {
    return { ok: false, usage: true, message: 'the WordPress version is required: give --cms-version VERSION (or --from-wp-cli FILE)' };
  }
  const request: VulnCheckRequestInput = {
    cms_version: cmsVersion,
    plugins: [...(base?.plugins ?? []), ...plugins.items],
    themes: [...(base?.themes ?? []), ...themes.items],
  };
  const valid = VulnCheckRequestSchema.safeParse(request);
  if (!valid.success) {
    return { ok: false, usage: wpCliText === undefined, message: describeIssues(valid.error).replace(/^cms_version:/, '--cms-version:') };
  }
  return { ok: true, request, warnings };
}
