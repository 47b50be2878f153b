// The WAF as CRS's CI ran it for these tests: ModSecurity's recommended settings
// (DetectionOnly), Debian's crs-setup.conf, the CI profile (paranoia 4, thresholds), the test
// marker rule, then the CRS 3.3.4 rules from the Debian package.
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';
import { existsSync } from 'node:fs';
import { loadCrs, type Waf } from '../../daemon/engine/waf.js';
import type { EngineRegistries } from '../../daemon/engine/registries.js';
import type { MissMemoLimits } from '../../daemon/engine/rules/miss-memo.js';
import { CMS_RULES, WORDPRESS_EXCLUSIONS } from '../../daemon/rule-sets/rule-set-builder.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'crs-tests');
export const CRS_RULES_DIR = '/usr/share/modsecurity-crs/rules';
export const CRS_SETUP = '/etc/modsecurity/crs/crs-setup.conf';

/** True when the Debian modsecurity-crs package is installed (apt-get install modsecurity-crs). */
export function crsInstalled(): boolean {
  return existsSync(join(CRS_RULES_DIR, 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf')) && existsSync(CRS_SETUP);
}

export function loadCiWaf(registries: EngineRegistries, missMemo?: MissMemoLimits): Waf {
  return loadCrs({
    registries,
    missMemo,
    rulesDir: CRS_RULES_DIR,
    setupFile: CRS_SETUP,
    before: [{ file: join(FIXTURES, 'modsecurity-base.conf') }],
    afterSetup: [{ file: join(FIXTURES, 'profile-ci.conf') }, { file: join(FIXTURES, 'marker-rule.conf') }],
  });
}

/** The same WAF with the daemon's `cms` group on, as a WordPress site runs it under CRS 3.3:
 *  CRS's built-in WordPress exclusions (900130) and wafctl's own WordPress rules after CRS. */
export function loadCiWafWithCms(registries: EngineRegistries): Waf {
  return loadCrs({
    registries,
    rulesDir: CRS_RULES_DIR,
    setupFile: CRS_SETUP,
    before: [{ file: join(FIXTURES, 'modsecurity-base.conf') }],
    afterSetup: [{ file: join(FIXTURES, 'profile-ci.conf') }, { file: join(FIXTURES, 'marker-rule.conf') }, WORDPRESS_EXCLUSIONS],
    after: [{ file: CMS_RULES }],
  });
}
