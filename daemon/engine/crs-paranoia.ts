import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SecLangError } from './seclang/errors.js';
import type { ConfigSource } from './waf.js';

// Paranoia under both CRS lines. CRS 3 reads tx.paranoia_level (blocking) and
// tx.executing_paranoia_level (rules that run and log but do not count towards the block); CRS 4
// renamed them tx.blocking_paranoia_level and tx.detection_paranoia_level and ignores the old names,
// so setting CRS 3's variable under CRS 4 silently ran paranoia 1. The line is read from the rules
// themselves (REQUEST-901 initialises the variable it reads), not from a version string: a
// repackaged or patched release still says which variables it uses.

export type CrsLine = 3 | 4;

export interface ParanoiaLevels {
  /** Rules up to this level count towards blocking. */
  blocking: number;
  /** Rules up to this level run and log (>= blocking). */
  detection: number;
}

/** Which CRS line the rules in `rulesDir` belong to: 4 when REQUEST-901 initialises tx.blocking_paranoia_level. */
export function crsLineOf(rulesDir: string): CrsLine {
  const init = join(rulesDir, 'REQUEST-901-INITIALIZATION.conf');
  if (!existsSync(init)) return 4;
  return /tx\.blocking_paranoia_level/i.test(readFileSync(init, 'latin1')) ? 4 : 3;
}

/** The SecAction (id 900000, crs-setup's own id for it) that sets both levels under `line`; throws on levels out of range. */
export function paranoiaSource(line: CrsLine, levels: ParanoiaLevels): ConfigSource {
  const { blocking, detection } = levels;
  for (const [name, value] of [['paranoia level', blocking], ['detection paranoia level', detection]] as const) {
    if (!Number.isInteger(value) || value < 1 || value > 4) {
      throw new SecLangError({ file: '<options>', line: 0 }, `${name} must be 1-4, got ${value}`);
    }
  }
  if (detection < blocking) {
    throw new SecLangError({ file: '<options>', line: 0 }, `detection paranoia level ${detection} is below the paranoia level ${blocking}`);
  }
  const [blockingVar, detectionVar] = line === 4
    ? ['tx.blocking_paranoia_level', 'tx.detection_paranoia_level']
    : ['tx.paranoia_level', 'tx.executing_paranoia_level'];
  return {
    text: `SecAction "id:900000,phase:1,nolog,pass,t:none,setvar:${blockingVar}=${blocking},setvar:${detectionVar}=${detection}"`,
    name: `<paranoia override: CRS ${line}>`,
  };
}
