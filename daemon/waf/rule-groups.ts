import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultRegistries } from '../engine/default-registries.js';
import { loadCrs, Waf, type ConfigSource } from '../engine/waf.js';

// The rule groups of DESIGN.md section 3 step 8, compiled once per paranoia level a site uses:
// the engine's base settings, then the Core Rule Set (its crs-setup.conf, the WordPress exclusions
// on, the level), then our own `cms` WordPress rules. Without CRS the daemon runs the cms group
// alone and says so in `daemon status`.

const HERE = fileURLToPath(new URL('.', import.meta.url));
export const BASE_SETTINGS = join(HERE, 'base-settings.conf');
export const CMS_RULES = join(HERE, '..', 'proxy', 'rules', 'cms', 'wordpress.conf');
const DEBIAN_CRS_SETUP = '/etc/modsecurity/crs/crs-setup.conf';

// crs-setup.conf leaves rule 900130 commented out; WordPress sites want its exclusions.
const WORDPRESS_EXCLUSIONS: ConfigSource = {
  text: 'SecAction "id:900130,phase:1,nolog,pass,t:none,setvar:tx.crs_exclusions_wordpress=1"',
  name: '<wordpress exclusions>',
};

export interface CrsLocation {
  rulesDir: string;
  setupFile: string;
}

/** Where CRS lives under --crs-dir (rules/ and a crs-setup.conf beside it or Debian's), or null. */
export function findCrs(crsDir: string): CrsLocation | null {
  const rulesDir = join(crsDir, 'rules');
  if (!existsSync(join(rulesDir, 'REQUEST-901-INITIALIZATION.conf'))) return null;
  const setupFile = [join(crsDir, 'crs-setup.conf'), join(crsDir, 'crs-setup.conf.example'), DEBIAN_CRS_SETUP].find((f) => existsSync(f));
  return setupFile ? { rulesDir, setupFile } : null;
}

export class RuleGroups {
  private readonly byLevel = new Map<number, Waf>();

  constructor(readonly crs: CrsLocation | null) {}

  /** The compiled rule set for a paranoia level (1-4), built on first use. */
  forParanoia(level: number): Waf {
    let waf = this.byLevel.get(level);
    if (waf === undefined) {
      waf = this.compile(level);
      this.byLevel.set(level, waf);
    }
    return waf;
  }

  private compile(level: number): Waf {
    const base: ConfigSource = { file: BASE_SETTINGS };
    const cms: ConfigSource = { file: CMS_RULES };
    if (this.crs === null) return Waf.load([base, cms], { registries: defaultRegistries });
    return loadCrs({
      registries: defaultRegistries,
      rulesDir: this.crs.rulesDir,
      setupFile: this.crs.setupFile,
      before: [base],
      afterSetup: [WORDPRESS_EXCLUSIONS],
      paranoiaLevel: level,
      after: [cms],
    });
  }
}
