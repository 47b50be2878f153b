// The Core Rule Set releases installed under <data>/crs: one directory per version, plus the file
// `selected` naming the one the daemon runs. Both the CLI (`wafctl crs list|use|remove`) and the
// daemon (which rule set to load) read them through here, so the layout is decided in one place.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataPaths } from '../../shared/paths.js';
import { findCrs, type CrsLocation } from '../rule-sets/rule-set-builder.js';
import { CrsError } from './crs-error.js';

/** A CRS version as its releases name it: 4.28.0. Anything else never becomes a path. */
export const VERSION_PATTERN = /^\d{1,3}\.\d{1,3}\.\d{1,3}$/;

export interface InstalledRelease {
  version: string;
  path: string;
  selected: boolean;
}

export function checkVersion(version: string): string {
  if (!VERSION_PATTERN.test(version)) {
    throw new CrsError('invalid_crs_version', `"${version}" is not a CRS version`, 'versions look like 4.28.0 (see `wafctl crs list`)');
  }
  return version;
}

/** Newest first, by number (4.10.0 after 4.9.0). */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pb[i] - pa[i];
  return 0;
}

export class InstalledReleases {
  readonly root: string;
  private readonly selectionFile: string;

  constructor(dataDir: string) {
    const paths = dataPaths(dataDir);
    this.root = paths.crsDir;
    this.selectionFile = paths.crsSelection;
  }

  pathOf(version: string): string {
    return join(this.root, checkVersion(version));
  }

  /** Installed versions, newest first; dot-directories are installs still in progress (or killed). */
  list(): InstalledRelease[] {
    if (!existsSync(this.root)) return [];
    const selected = this.selected();
    return readdirSync(this.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && VERSION_PATTERN.test(entry.name))
      .map((entry) => entry.name)
      .sort(compareVersions)
      .map((version) => ({ version, path: join(this.root, version), selected: version === selected }));
  }

  isInstalled(version: string): boolean {
    return existsSync(this.pathOf(version));
  }

  /** The selected version, or null when none is (or the file names something that is not one). */
  selected(): string | null {
    let text: string;
    try {
      text = readFileSync(this.selectionFile, 'utf8').trim();
    } catch {
      return null;
    }
    return VERSION_PATTERN.test(text) ? text : null;
  }

  /** The selected release's rules when it is installed and whole, else null. */
  selectedLocation(): { version: string; path: string; location: CrsLocation | null } | null {
    const version = this.selected();
    if (version === null) return null;
    const path = join(this.root, version);
    return { version, path, location: existsSync(path) ? findCrs(path) : null };
  }

  async use(version: string): Promise<void> {
    if (!this.isInstalled(version)) {
      throw new CrsError('crs_not_installed', `CRS ${version} is not installed`, `run \`wafctl crs install ${version}\`, or pick one of \`wafctl crs list\``);
    }
    // Written beside and renamed over: a reader sees the old selection or the new, never half a line.
    await mkdir(this.root, { recursive: true });
    const temp = `${this.selectionFile}.${process.pid}.tmp`;
    await writeFile(temp, `${version}\n`, { mode: 0o644 });
    await rename(temp, this.selectionFile);
  }

  /** Removes an installed version; the selected one is refused (removing it would leave the daemon with no rules). */
  async remove(version: string): Promise<void> {
    if (!this.isInstalled(version)) {
      throw new CrsError('crs_not_installed', `CRS ${version} is not installed`, 'see `wafctl crs list`');
    }
    if (this.selected() === version) {
      throw new CrsError('crs_in_use', `CRS ${version} is the selected rule set`, 'select another first (`wafctl crs use VERSION`), then remove this one');
    }
    // Renamed away first, so the version disappears at once even if deleting the tree is slow or stops halfway.
    const doomed = join(this.root, `.removing-${version}-${process.pid}`);
    await rename(this.pathOf(version), doomed);
    await rm(doomed, { recursive: true, force: true });
  }
}
