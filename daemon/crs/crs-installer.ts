// `wafctl crs install`: fetch, prove, unpack, load, then publish. The archive is unpacked into a
// dot-directory beside the installs and renamed to <data>/crs/<version> only after the engine has
// loaded its rules, so a version directory is always a whole release that loads; any failure on the
// way removes the temporary tree and leaves the installs and the selection as they were.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { SecLangError } from '../engine/seclang/errors.js';
import { defaultRuleSettings } from '../rule-sets/rule-settings.js';
import { compileRuleSet, findCrs } from '../rule-sets/rule-set-builder.js';
import { checkArchive, type Verified } from './archive-check.js';
import { CrsError } from './crs-error.js';
import { checkVersion, InstalledReleases } from './installed-releases.js';
import { inspectArchive, unpackArchive } from './release-archive.js';
import { fetchArchive, type SourceRequest } from './release-source.js';

export interface InstallReport {
  version: string;
  path: string;
  /** The version was installed before; nothing was downloaded or changed (or the new copy was dropped). */
  already_installed: boolean;
  /** It is the selected version now (a first install selects itself). */
  selected: boolean;
  verified: Verified | null;
  rules: number | null;
}

export async function installCrs(dataDir: string, request: SourceRequest): Promise<InstallReport> {
  const installs = new InstalledReleases(dataDir);
  if (request.version !== undefined && installs.isInstalled(checkVersion(request.version))) return already(installs, request.version);

  const fetched = await fetchArchive(request);
  const verified = await checkArchive(fetched.bytes, fetched.proof, fetched.name);
  const { version } = await inspectArchive(fetched.bytes, fetched.name);
  const expected = request.version ?? fetched.version;
  if (expected !== null && expected !== version) {
    throw new CrsError('crs_version_mismatch', `${fetched.name} holds CRS ${version}, not ${expected}`, 'check the archive you pointed at');
  }
  if (installs.isInstalled(version)) return already(installs, version);

  await mkdir(installs.root, { recursive: true });
  const incoming = await mkdtemp(join(installs.root, `.incoming-${version}-`));
  try {
    await unpackArchive(fetched.bytes, incoming, fetched.name);
    const rules = checkLoads(incoming, fetched.name);
    try {
      await rename(incoming, installs.pathOf(version));
    } catch (error) {
      // Another install of the same version won the race: its tree is as good as ours.
      if (installs.isInstalled(version)) return already(installs, version);
      throw error;
    }
    if (installs.selected() === null) await installs.use(version);
    return { version, path: installs.pathOf(version), already_installed: false, selected: installs.selected() === version, verified, rules };
  } finally {
    if (existsSync(incoming)) await rm(incoming, { recursive: true, force: true });
  }
}

function already(installs: InstalledReleases, version: string): InstallReport {
  return { version, path: installs.pathOf(version), already_installed: true, selected: installs.selected() === version, verified: null, rules: null };
}

/** Loads the unpacked release with the engine as the daemon will (default settings); returns its rule count. */
function checkLoads(dir: string, name: string): number {
  const location = findCrs(dir);
  if (location === null || !location.setupFile.startsWith(dir)) {
    throw new CrsError('crs_archive_invalid', `${name} has no rules/REQUEST-901-INITIALIZATION.conf and crs-setup.conf.example`, 'is it a CRS 4 release archive?');
  }
  try {
    return compileRuleSet(defaultRuleSettings(1), location).ruleSet.byId.size;
  } catch (error) {
    const reason = error instanceof SecLangError ? error.message : String(error);
    throw new CrsError('crs_rules_invalid', `the rules of ${name} do not load: ${reason}`, 'wafctl\'s engine cannot run this release; install another version (`wafctl crs install VERSION`)');
  }
}
