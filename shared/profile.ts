// The CLI's login profiles: which management API to call, for which site, with which key.
// One JSON file, ~/.config/wafctl/config.json (or $XDG_CONFIG_HOME/wafctl/config.json), mode 0600
// because it holds clear API keys. Profiles are keyed by site domain; `current` is the site used
// when neither --site nor WAFCTL_SITE names one. WAFCTL_SERVER, WAFCTL_SITE, WAFCTL_KEY and
// WAFCTL_TOKEN override the file, so CI jobs need no file at all.
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { z } from 'zod';

export const ProfileSchema = z.object({
  /** Base URL of the management API, e.g. https://127.0.0.1:9443 */
  server: z.string().url(),
  /** The site's API key in clear (the daemon only keeps its hash). */
  key: z.string().min(1),
  /** PEM file of the CA that signed the server's certificate; absent: the system CAs. */
  ca: z.string().optional(),
  /** Ingestion bearer token, when one was saved for this site's account. */
  token: z.string().optional(),
});
export type Profile = z.infer<typeof ProfileSchema>;

export const ProfileFileSchema = z.object({
  version: z.literal(1),
  current: z.string().optional(),
  profiles: z.record(z.string(), ProfileSchema),
});
export type ProfileFile = z.infer<typeof ProfileFileSchema>;

const EMPTY: ProfileFile = { version: 1, profiles: {} };

type Env = Readonly<Record<string, string | undefined>>;

export class ProfileFileError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path}: ${problem}; fix or remove the file (it was left untouched)`);
    this.name = 'ProfileFileError';
  }
}

export function profilePath(env: Env): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'wafctl', 'config.json');
}

/** What the flags, the environment and the file together say to use. Any field may be missing. */
export interface ResolvedProfile {
  site?: string;
  server?: string;
  key?: string;
  ca?: string;
  token?: string;
}

export class ProfileStore {
  readonly path: string;

  constructor(private readonly env: Env) {
    this.path = profilePath(env);
  }

  async load(): Promise<ProfileFile> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(EMPTY);
      throw new ProfileFileError(this.path, `cannot read: ${(error as Error).message}`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new ProfileFileError(this.path, 'not valid JSON');
    }
    const result = ProfileFileSchema.safeParse(parsed);
    if (!result.success) {
      const issue = result.error.issues[0];
      throw new ProfileFileError(this.path, `invalid at ${issue.path.join('.') || '(top)'}: ${issue.message}`);
    }
    return result.data;
  }

  /** Saves (or replaces) the profile of `site`; it becomes the current one unless told otherwise. */
  async save(site: string, profile: Profile, options: { makeCurrent?: boolean } = {}): Promise<void> {
    const file = await this.load(); // a corrupt file throws here and is never overwritten
    file.profiles[site] = ProfileSchema.parse(profile);
    if (options.makeCurrent ?? true) file.current = site;
    await this.write(file);
  }

  async resolve(flags: { site?: string; server?: string }): Promise<ResolvedProfile> {
    const env = this.env;
    const file = await this.load();
    const site = flags.site || env.WAFCTL_SITE || file.current;
    const saved = site ? file.profiles[site] : undefined;
    return {
      site,
      server: flags.server || env.WAFCTL_SERVER || saved?.server,
      key: env.WAFCTL_KEY || saved?.key,
      ca: saved?.ca,
      token: env.WAFCTL_TOKEN || saved?.token,
    };
  }

  // Written whole to a sibling temp file (0600 from the start), then renamed over the old one:
  // a crash leaves either the old file or the new one, never half of each.
  private async write(file: ProfileFile): Promise<void> {
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    await writeFile(temp, JSON.stringify(file, null, 2) + '\n', { mode: 0o600 });
    await chmod(temp, 0o600); // an old temp file with looser bits would keep them through writeFile
    await rename(temp, this.path);
  }
}
