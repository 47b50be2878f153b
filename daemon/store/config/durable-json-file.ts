import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import { readTrustedFile, REWRITE_NO_FOLLOW } from '../../lifecycle/safe-open.js';

// A lowdb adapter for <data>/config.json. lowdb's own JSONFile (steno) writes a temp file and renames
// it, but neither fsyncs nor sets a mode: the temp file would be created 0644 under the usual umask
// and a power cut right after the rename could leave an empty file. This adapter keeps steno's
// write-rename and adds mode 0600 from the first byte, fsync of the file and of the directory, and a
// queue so writes never interleave. Neither the file nor its temp file is followed if it is a
// symbolic link, and a config.json another user controls is refused (security review M3).

export const CONFIG_FILE_MODE = 0o600;

export class DurableJsonFile<T> implements Adapter<T> {
  readonly #file: string;
  readonly #temp: string;
  #queue: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
    this.#temp = join(dirname(file), `.${basename(file)}.tmp`);
  }

  /** null when the file does not exist; throws SyntaxError (with the file's text unparsed) when it is not JSON. */
  async read(): Promise<T | null> {
    const bytes = await readTrustedFile(this.#file);
    return bytes === null ? null : (JSON.parse(bytes.toString('utf8')) as T);
  }

  write(data: T): Promise<void> {
    const text = JSON.stringify(data, null, 2) + '\n';
    const next = this.#queue.then(() => this.#writeNow(text));
    this.#queue = next.catch(() => undefined);
    return next;
  }

  async #writeNow(text: string): Promise<void> {
    const handle = await open(this.#temp, REWRITE_NO_FOLLOW, CONFIG_FILE_MODE);
    try {
      await handle.chmod(CONFIG_FILE_MODE); // a leftover temp file keeps its old mode on open
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(this.#temp, this.#file);
    const dir = await open(dirname(this.#file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  }
}
