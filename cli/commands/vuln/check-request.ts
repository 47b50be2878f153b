// The body `wafctl vuln check` sends, from its flags and, with --from-wp-cli, WP-CLI's output:
// --cms-version overrides the core version read from WP-CLI, --plugin/--theme add to its lists.
// Checked locally with the request schema the daemon uses, so a bad value is a usage error
// before any network call.
import { parseComponentArgs } from '../../vuln/component-args.js';
import { parseWpCliInput } from '../../vuln/wp-cli-input.js';
import { describeIssues } from '../../../shared/schemas/issues.js';
import { VulnCheckRequestSchema, type VulnCheckRequestInput } from '../../../shared/schemas/vulndb.js';

export interface CheckFlags {
  cmsVersion?: string;
  plugin: string[];
  theme: string[];
}

export type BuiltRequest =
  | { ok: true; request: VulnCheckRequestInput; warnings: string[] }
  | { ok: false; usage: boolean; message: string };

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
