// The WAF as CRS 4.28's CI runs its regression tests (owasp/modsecurity-crs image, tests/docker-compose.yml):
// ModSecurity's recommended settings (DetectionOnly; response bodies of text/plain, text/html,
// text/xml and application/json inspected), crs-setup.conf.example with the image's
// SecDefaultAction lines, the CI profile (blocking paranoia 4, thresholds, limits) and the test
// marker rule, then plugins/*-config.conf, plugins/*-before.conf, the rules, plugins/*-after.conf:
// the order the image includes CRS plugins in.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Waf, type ConfigSource } from '../../daemon/engine/waf.js';
import type { EngineRegistries } from '../../daemon/engine/registries.js';
import { FIXTURES } from '../crs/ci-waf.js';

/** CRS 4.28 as /work/shared/crs4 lays it out; CI puts it at ../shared/crs4 beside the clone. */
export const CRS4_DIR = resolve(process.env.WAFCTL_CRS4_DIR ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'shared', 'crs4'));

export function crs4Present(): boolean {
  return existsSync(join(CRS4_DIR, 'rules', 'REQUEST-942-APPLICATION-ATTACK-SQLI.conf')) && existsSync(join(CRS4_DIR, 'tests'));
}

// The image's modsecurity.conf is the recommended one the CRS 3 suite already uses
// (test/fixtures/crs-tests/modsecurity-base.conf); CRS 4's image adds JSON to the inspected types.
const IMAGE_OVERRIDES = 'SecResponseBodyMimeType text/plain text/html text/xml application/json';

// The image writes its own default actions for phases 1 and 2 in place of the example's five.
const IMAGE_DEFAULT_ACTIONS = 'SecDefaultAction "phase:1,pass,log,tag:\'modsecurity\'"\nSecDefaultAction "phase:2,pass,log,tag:\'modsecurity\'"';

function imageCrsSetup(): ConfigSource {
  const example = readFileSync(join(CRS4_DIR, 'crs-setup.conf.example'), 'utf8');
  const lines = example.split('\n').filter((l) => !l.startsWith('SecDefaultAction '));
  return { text: `${IMAGE_DEFAULT_ACTIONS}\n${lines.join('\n')}`, name: join(CRS4_DIR, 'crs-setup.conf'), baseDir: CRS4_DIR };
}

function pluginFiles(pluginDirs: readonly string[], suffix: string): ConfigSource[] {
  return pluginDirs.flatMap((dir) => readdirSync(dir).filter((f) => f.endsWith(suffix)).sort().map((f) => ({ file: join(dir, f) })));
}

/** `pluginDirs`: folders holding CRS plugin files (e.g. the WordPress plugin's plugins/); `after`:
 *  what loads after the rules and the plugins' after files (the daemon's cms group). */
export function loadCrs4CiWaf(registries: EngineRegistries, pluginDirs: readonly string[] = [], after: readonly ConfigSource[] = []): Waf {
  const rulesDir = join(CRS4_DIR, 'rules');
  const sources: ConfigSource[] = [
    { file: join(FIXTURES, 'modsecurity-base.conf') },
    { text: IMAGE_OVERRIDES, name: '<crs4 image settings>' },
    imageCrsSetup(),
    { file: join(CRS4_DIR, 'profile-ci.conf') },
    { file: join(CRS4_DIR, 'marker-rule.conf') },
    ...pluginFiles(pluginDirs, '-config.conf'),
    ...pluginFiles(pluginDirs, '-before.conf'),
    ...readdirSync(rulesDir).filter((f) => f.endsWith('.conf')).sort().map((f) => ({ file: join(rulesDir, f) })),
    ...pluginFiles(pluginDirs, '-after.conf'),
    ...after,
  ];
  return Waf.load(sources, { registries });
}
