// The bans of a single node: `<data>/bans.json`, written whole (0600, fsync, rename, as
// config.json) after each change, so a ban survives a restart or a crash once add() resolved.
// Records that ended more than a week ago are dropped at each write. A file that cannot be
// read as bans (hand-edited, truncated by a full disk) is moved aside with a warning and the node
// starts with no bans: a ban is a temporary measure, not worth refusing to start over.
import { rename } from 'node:fs/promises';
import type { Logger } from 'pino';
import { z } from 'zod';
import { BanSchema, type Ban } from '../../shared/schemas/bans.js';
import { DurableJsonFile } from '../store/config/durable-json-file.js';
import { isActive, isKept, type BanStore } from './ban-store.js';

const BansFileSchema = z.object({ version: z.literal(1), bans: z.array(BanSchema) });
type BansFile = z.infer<typeof BansFileSchema>;

export class FileBanStore implements BanStore {
  readonly #file: DurableJsonFile<BansFile>;
  readonly #clock: () => number;
  #bans: Ban[];
  readonly #listeners = new Set<() => void>();
  /** Changes one at a time: each starts from the list the one before left. */
  #queue: Promise<unknown> = Promise.resolve();

  private constructor(file: DurableJsonFile<BansFile>, bans: Ban[], clock: () => number) {
    this.#file = file;
    this.#bans = bans;
    this.#clock = clock;
  }

  static async open(path: string, logger: Logger, clock: () => number = Date.now): Promise<FileBanStore> {
    const file = new DurableJsonFile<BansFile>(path);
    let bans: Ban[] = [];
    try {
      const data = await file.read();
      if (data !== null) bans = BansFileSchema.parse(data).bans;
    } catch (error) {
      const aside = `${path}.unreadable-${new Date(clock()).toISOString().replaceAll(':', '')}`;
      await rename(path, aside);
      logger.warn({ err: error, moved_to: aside }, 'bans: bans.json could not be read; moved aside, starting with no bans');
    }
    return new FileBanStore(file, bans, clock);
  }

  all(): readonly Ban[] {
    return this.#bans;
  }

  add(ban: Ban): Promise<void> {
    return this.#change(async () => { await this.#write([...this.#bans, ban]); });
  }

  revoke(siteId: number, ip: string, at: string): Promise<Ban[]> {
    return this.#change(async () => {
      const now = this.#clock();
      const revoked: Ban[] = [];
      const next = this.#bans.map((b) => {
        if (b.site_id !== siteId || b.ip !== ip || !isActive(b, now)) return b;
        const ended = { ...b, revoked_at: at };
        revoked.push(ended);
        return ended;
      });
      if (revoked.length > 0) await this.#write(next);
      return revoked;
    });
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.#listeners.clear();
  }

  #change<T>(job: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(job);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  /** Durable first, then visible: a ban the file does not hold is never enforced. */
  async #write(bans: Ban[]): Promise<void> {
    const now = this.#clock();
    const kept = bans.filter((b) => isKept(b, now));
    await this.#file.write({ version: 1, bans: kept });
    this.#bans = kept;
    for (const listener of this.#listeners) listener();
  }
}
