// Where a CRS release archive comes from, and what proves it: the newest 4.x (or a given version)
// from CRS's GitHub releases, or --from a URL, a file or a directory holding
// coreruleset-<version>.tar.gz. The detached signature is looked for beside the archive
// (`<archive>.asc`, as CRS publishes it); --sha256 stands in for it when a mirror has none.
import { existsSync, readdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { ArchiveProof } from './archive-check.js';
import { CrsError, OFFLINE_HINT } from './crs-error.js';
import { compareVersions } from './installed-releases.js';
import { trustedReleaseKey } from './release-key.js';

/** GitHub's REST API; tests point this at a local server answering the same shape. */
export const RELEASES_API_ENV = 'WAFCTL_CRS_RELEASES_API';
const GITHUB_API = 'https://api.github.com';
const REPO_PATH = '/repos/coreruleset/coreruleset';
const MAX_ARCHIVE_BYTES = 64 * 1024 * 1024;
const ARCHIVE_NAME = /^coreruleset-(\d{1,3}\.\d{1,3}\.\d{1,3})\.tar\.gz$/;

export interface SourceRequest {
  version?: string;
  from?: string;
  sha256?: string;
  env: NodeJS.ProcessEnv;
}

export interface FetchedArchive {
  name: string;
  bytes: Buffer;
  proof: ArchiveProof;
  /** The version the source names (release tag or file name), checked against the archive's own. */
  version: string | null;
}

interface GithubRelease {
  tag_name: string;
  draft?: boolean;
  prerelease?: boolean;
  assets?: Array<{ name: string; browser_download_url: string }>;
}

/** Downloads or reads the archive and its signature; the caller checks and unpacks them. */
export async function fetchArchive(request: SourceRequest): Promise<FetchedArchive> {
  const { from } = request;
  if (from === undefined) return fromGithub(request);
  if (/^https?:\/\//i.test(from)) {
    const bytes = await download(from);
    const signature = await downloadIfPresent(`${from}.asc`);
    return archive(request, nameOf(from), bytes, signature?.toString('utf8') ?? null);
  }
  return fromLocal(request, resolve(from));
}

async function fromGithub(request: SourceRequest): Promise<FetchedArchive> {
  const api = (request.env[RELEASES_API_ENV] || GITHUB_API).replace(/\/+$/, '');
  const release = request.version
    ? (await getJson(`${api}${REPO_PATH}/releases/tags/v${request.version}`, `CRS ${request.version} is not a CRS release`)) as GithubRelease
    : newest4x((await getJson(`${api}${REPO_PATH}/releases?per_page=100`, 'CRS has no releases')) as GithubRelease[]);
  const version = release.tag_name.replace(/^v/, '');
  const assets = release.assets ?? [];
  const tarball = assets.find((a) => a.name === `coreruleset-${version}.tar.gz`);
  if (!tarball) throw new CrsError('crs_release_not_found', `release ${release.tag_name} has no coreruleset-${version}.tar.gz`, OFFLINE_HINT);
  const asc = assets.find((a) => a.name === `${tarball.name}.asc`);
  const bytes = await download(tarball.browser_download_url);
  const signature = asc ? await download(asc.browser_download_url) : null;
  return archive(request, tarball.name, bytes, signature?.toString('utf8') ?? null, version);
}

function newest4x(releases: GithubRelease[]): GithubRelease {
  if (!Array.isArray(releases)) throw new CrsError('crs_unreachable', 'the releases API answered something that is not a release list', OFFLINE_HINT);
  const candidates = releases
    .filter((r) => !r.draft && !r.prerelease && /^v4\.\d{1,3}\.\d{1,3}$/.test(r.tag_name ?? ''))
    .sort((a, b) => compareVersions(a.tag_name.slice(1), b.tag_name.slice(1)));
  if (candidates.length === 0) throw new CrsError('crs_release_not_found', 'CRS\'s releases list no 4.x release', OFFLINE_HINT);
  return candidates[0];
}

async function fromLocal(request: SourceRequest, path: string): Promise<FetchedArchive> {
  const info = await stat(path).catch(() => {
    throw new CrsError('crs_source_not_found', `${path} does not exist`, 'give a URL, a coreruleset-<version>.tar.gz file, or a directory holding one');
  });
  const file = info.isDirectory() ? archiveIn(path, request.version) : path;
  const bytes = await readFile(file);
  const signature = existsSync(`${file}.asc`) ? await readFile(`${file}.asc`, 'utf8') : null;
  return archive(request, basename(file), bytes, signature);
}

function archiveIn(dir: string, version: string | undefined): string {
  const versions = readdirSync(dir).map((name) => ARCHIVE_NAME.exec(name)?.[1]).filter((v): v is string => v !== undefined);
  const chosen = version ?? versions.sort(compareVersions)[0];
  if (chosen === undefined || !versions.includes(chosen)) {
    throw new CrsError('crs_source_not_found', `${dir} holds no coreruleset-${version ?? '<version>'}.tar.gz`, 'put the release archive and its .asc there, or give the file itself');
  }
  return join(dir, `coreruleset-${chosen}.tar.gz`);
}

function archive(request: SourceRequest, name: string, bytes: Buffer, signature: string | null, version?: string): FetchedArchive {
  const named = version ?? ARCHIVE_NAME.exec(name)?.[1] ?? null;
  if (request.sha256) return { name, bytes, proof: { kind: 'sha256', hex: request.sha256 }, version: named };
  if (signature === null) {
    throw new CrsError('crs_unsigned', `${name} has no signature (${name}.asc) and no --sha256 was given`, 'put the release\'s .asc beside the archive, or give its SHA-256 from a source you trust with --sha256 HEX');
  }
  return { name, bytes, proof: { kind: 'signature', armored: signature, key: () => trustedReleaseKey(request.env) }, version: named };
}

function nameOf(url: string): string {
  return decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
}

async function getJson(url: string, notFound: string): Promise<unknown> {
  const response = await request(url, { accept: 'application/vnd.github+json' });
  if (response.status === 404) throw new CrsError('crs_release_not_found', notFound, 'see https://github.com/coreruleset/coreruleset/releases, or `wafctl crs install` for the newest 4.x');
  if (!response.ok) throw new CrsError('crs_unreachable', `${url} answered ${response.status}`, OFFLINE_HINT);
  return response.json().catch(() => {
    throw new CrsError('crs_unreachable', `${url} answered something that is not JSON`, OFFLINE_HINT);
  });
}

/** A URL that may have nothing: the `.asc` beside an archive on a mirror that publishes none. */
async function downloadIfPresent(url: string): Promise<Buffer | null> {
  const response = await request(url, {});
  return response.status === 404 ? null : body(url, response);
}

async function download(url: string): Promise<Buffer> {
  return body(url, await request(url, {}));
}

async function body(url: string, response: Response): Promise<Buffer> {
  if (!response.ok) throw new CrsError('crs_download_failed', `${url} answered ${response.status}`, OFFLINE_HINT);
  const length = Number(response.headers.get('content-length'));
  if (length > MAX_ARCHIVE_BYTES) throw new CrsError('crs_download_failed', `${url} is ${length} bytes, far more than a CRS release`);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (bytes.length > MAX_ARCHIVE_BYTES) throw new CrsError('crs_download_failed', `${url} is more than ${MAX_ARCHIVE_BYTES} bytes, far more than a CRS release`);
  return bytes;
}

async function request(url: string, headers: Record<string, string>): Promise<Response> {
  try {
    return await fetch(url, { headers: { 'user-agent': 'wafctl', ...headers }, redirect: 'follow' });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new CrsError('crs_unreachable', `cannot reach ${new URL(url).host}: ${cause?.code ?? cause?.message ?? (error as Error).message}`, OFFLINE_HINT);
  }
}
