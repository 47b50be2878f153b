// Real CRS release archives for tests, built from ../shared/crs4 the way CRS lays a release out
// (coreruleset-<version>/rules/..., crs-setup.conf.example), signed with an OpenPGP key made at test
// time, and served by a real local HTTP server that also answers GitHub's releases API shape.
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as openpgp from 'openpgp';
import { create } from 'tar';

export const SHARED_CRS = join(import.meta.dirname, '..', '..', '..', 'shared', 'crs4');

export interface TestKey {
  publicFile: string;
  privateArmored: string;
}

export async function makeTestKey(dir: string, name = 'wafctl test release key'): Promise<TestKey> {
  const { privateKey, publicKey } = await openpgp.generateKey({ type: 'ecc', curve: 'curve25519Legacy', userIDs: [{ name, email: 'test@wafctl.invalid' }], format: 'armored' });
  const publicFile = join(dir, `${name.replace(/\W+/g, '-')}.asc`);
  writeFileSync(publicFile, publicKey);
  return { publicFile, privateArmored: privateKey };
}

export async function sign(bytes: Buffer, key: TestKey): Promise<string> {
  const signingKeys = await openpgp.readPrivateKey({ armoredKey: key.privateArmored });
  const message = await openpgp.createMessage({ binary: new Uint8Array(bytes) });
  return openpgp.sign({ message, signingKeys, detached: true, format: 'armored' }) as Promise<string>;
}

export const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface ArchiveOptions {
  version?: string;
  /** Extra entries placed beside the release directory, to build hostile archives. */
  tamper?: (stage: string, top: string) => string[];
  /** Replaces a rule file's text (an archive whose rules do not load). */
  brokenRule?: string;
  /** A rule file only this archive has (tells two versions apart through the edge). */
  extraRule?: string;
}

/** A .tar.gz of the shared CRS 4 rules as `coreruleset-<version>/...`. */
export async function buildArchive(options: ArchiveOptions = {}): Promise<Buffer> {
  const version = options.version ?? '4.28.0';
  const stage = mkdtempSync(join(tmpdir(), 'crs-stage-'));
  const top = `coreruleset-${version}`;
  mkdirSync(join(stage, top));
  cpSync(join(SHARED_CRS, 'rules'), join(stage, top, 'rules'), { recursive: true });
  // The shared rules are read-only (dir 0555) and the copy keeps that: as root that never shows,
  // as an ordinary user the extra and broken rule files below could not be written.
  chmodSync(join(stage, top, 'rules'), 0o755);
  cpSync(join(SHARED_CRS, 'crs-setup.conf.example'), join(stage, top, 'crs-setup.conf.example'));
  if (options.extraRule) writeFileSync(join(stage, top, 'rules', 'REQUEST-998-ONLY-HERE.conf'), options.extraRule);
  if (options.brokenRule) writeFileSync(join(stage, top, 'rules', 'REQUEST-999-BROKEN.conf'), options.brokenRule);
  const extra = options.tamper?.(stage, top) ?? [];
  const file = join(stage, 'out.tar.gz');
  // preservePaths keeps a tamper's `../` entry names as written instead of stripping them.
  await create({ gzip: true, cwd: stage, file, portable: true, preservePaths: extra.length > 0 }, [top, ...extra]);
  return readFileSync(file);
}

/** An archive with a symlink inside the release pointing out of it. */
export function withEscapingSymlink(stage: string, top: string): string[] {
  symlinkSync('/etc', join(stage, top, 'rules', 'escape'));
  return [];
}

/** An archive with an entry whose name climbs out of the release directory. */
export function withDotDotEntry(stage: string, top: string): string[] {
  writeFileSync(join(stage, 'evil.conf'), 'SecRuleEngine Off\n');
  return [`${top}/../evil.conf`];
}

/** A small HTTP server of fixed files; everything else is 404. */
export class FileServer {
  readonly files = new Map<string, { body: Buffer | string; type?: string }>();
  readonly requests: string[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      this.requests.push(req.url ?? '');
      const file = this.files.get((req.url ?? '').split('?')[0]);
      if (!file) {
        res.writeHead(404).end('not found');
        return;
      }
      res.writeHead(200, { 'content-type': file.type ?? 'application/octet-stream' }).end(file.body);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** Publishes a release the way GitHub lists it: the archive and its .asc as assets. */
  publishRelease(version: string, archive: Buffer, signature: string | null, extra: { prerelease?: boolean } = {}): object {
    const name = `coreruleset-${version}.tar.gz`;
    this.files.set(`/download/v${version}/${name}`, { body: archive });
    const assets = [{ name, browser_download_url: `${this.url}/download/v${version}/${name}` }];
    if (signature !== null) {
      this.files.set(`/download/v${version}/${name}.asc`, { body: signature });
      assets.push({ name: `${name}.asc`, browser_download_url: `${this.url}/download/v${version}/${name}.asc` });
    }
    const release = { tag_name: `v${version}`, draft: false, prerelease: extra.prerelease ?? false, assets };
    this.files.set(`/repos/coreruleset/coreruleset/releases/tags/v${version}`, { body: JSON.stringify(release), type: 'application/json' });
    return release;
  }

  listReleases(releases: object[]): void {
    this.files.set('/repos/coreruleset/coreruleset/releases', { body: JSON.stringify(releases), type: 'application/json' });
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
