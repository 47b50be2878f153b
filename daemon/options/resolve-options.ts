import { access, constants } from 'node:fs/promises';
import { isIP } from 'node:net';
import { dirname, isAbsolute, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { dataPaths, defaultDataDir } from '../../shared/paths.js';
import { parseIpRange } from '../../shared/schemas/ip.js';
import { checkDataDirTrust } from '../lifecycle/data-dir-trust.js';
import { readTrustedFile, UnsafeFileError } from '../lifecycle/safe-open.js';
import { StartupError, trusted } from '../lifecycle/startup-errors.js';
import { OPTION_ROWS, type DaemonOptions, type OptionKind, type OptionRow } from './option-table.js';

// argv, environment and <data>/daemon.json into one DaemonOptions: flags > env > file > defaults.
// Every bad value is refused with one line naming where it came from (flag, variable or file key).

export class OptionsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OptionsError';
  }
}

type Raw = string | number | boolean | string[];
export type Flags = Partial<Record<string, string | boolean | string[]>>;

export function parseDaemonArgv(argv: readonly string[]): Flags {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean }> = { 'data-dir': { type: 'string' } };
  for (const row of OPTION_ROWS) options[row.flag] = { type: row.kind === 'bool' ? 'boolean' : 'string', ...(row.kind === 'cidrs' ? { multiple: true } : {}) };
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals: false }).values as Flags;
  } catch (error) {
    throw new OptionsError((error as Error).message.replace(/^TypeError \[\w+\]: /, ''));
  }
}

export async function resolveDaemonOptions(flags: Flags, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Promise<DaemonOptions> {
  const dataDir = typeof flags['data-dir'] === 'string' ? resolve(cwd, flags['data-dir']) : defaultDataDir(env);
  // Settings (an audit log path, an admin socket, certificate files) are only taken from a data dir
  // no other user controls: checked before daemon.json is read.
  await trusted(() => checkDataDirTrust(dataDir, { entries: false }));
  const file = await readDaemonFile(dataPaths(dataDir).daemonConfig);
  const options: Record<string, unknown> = { dataDir };
  for (const row of OPTION_ROWS) {
    const fromFlag = flags[row.flag];
    const fromEnv = env[row.env];
    if (fromFlag !== undefined) options[row.key] = convert(row, fromFlag, `--${row.flag}`, cwd);
    else if (fromEnv !== undefined && fromEnv !== '') options[row.key] = convert(row, fromEnv, row.env, cwd);
    else if (file[row.file] !== undefined) options[row.key] = convert(row, file[row.file] as Raw, `daemon.json ${row.file}`, dataDir);
    else options[row.key] = row.fallback(dataDir);
  }
  const result = options as unknown as DaemonOptions;
  if ((result.tlsCert === null) !== (result.tlsKey === null)) throw new OptionsError('--tls-cert and --tls-key must be given together');
  return result;
}

/** The settings in <data>/daemon.json; {} when there is none. Unknown keys are refused, not ignored. */
export async function readDaemonFile(path: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    // Not through a link, and only a file no other user controls.
    const bytes = await readTrustedFile(path);
    if (bytes === null) return {};
    text = bytes.toString('utf8');
  } catch (error) {
    if (error instanceof UnsafeFileError) throw new StartupError(`data dir ${dirname(path)} is not safe: ${error.message}`);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOTDIR') return {};
    // An unusable data dir is reported by the data-dir check, with a clearer message.
    if (code === 'EACCES' && !(await access(dirname(path), constants.X_OK).then(() => true, () => false))) return {};
    throw new OptionsError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new OptionsError(`${path} is not valid JSON (${(error as Error).message})`);
  }
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) throw new OptionsError(`${path} must hold a JSON object`);
  const known = new Set(OPTION_ROWS.map((r) => r.file));
  for (const key of Object.keys(doc)) {
    if (!known.has(key)) throw new OptionsError(`${path}: unknown setting "${key}" (known: ${[...known].join(', ')})`);
  }
  return doc as Record<string, unknown>;
}

/** One setting's value checked and converted as the daemon would at start (for commands that
 *  write daemon.json, such as `wafctl cluster join`); throws OptionsError naming `where`. */
export function checkSetting<K extends OptionRow['key']>(key: K, value: string, where: string, base: string): DaemonOptions[K] {
  const row = OPTION_ROWS.find((r) => r.key === key);
  if (row === undefined) throw new OptionsError(`unknown setting ${key}`);
  return convert(row, value, where, base) as DaemonOptions[K];
}

function convert(row: OptionRow, value: Raw, where: string, base: string): DaemonOptions[OptionRow['key']] {
  const problem = (what: string) => new OptionsError(`${where}: ${what}, got ${JSON.stringify(value)}`);
  const kind: OptionKind = row.kind;
  switch (kind) {
    case 'port': {
      const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < 0 || n > 65535) throw problem('must be a port number 0-65535');
      return n;
    }
    case 'count': {
      const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > 256) throw problem('must be a whole number from 1 to 256');
      return n;
    }
    case 'rate': {
      const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
      if (!Number.isInteger(n) || n < 1 || n > 100_000_000) throw problem('must be a whole number of requests per minute, at least 1');
      return n;
    }
    case 'millis': return wholeNumber(value, 1, 86_400_000, problem, 'must be a whole number of milliseconds from 1 to 86400000');
    case 'bytes': return wholeNumber(value, 1, 2 ** 40, problem, 'must be a whole number of bytes, at least 1');
    case 'limit': return wholeNumber(value, 0, 100_000_000, problem, 'must be a whole number, 0 to turn the limit off');
    case 'bool': {
      if (typeof value === 'boolean') return value;
      const text = String(value).toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(text)) return true;
      if (['0', 'false', 'no', 'off'].includes(text)) return false;
      throw problem('must be true or false');
    }
    case 'path': {
      if (typeof value !== 'string' || value.trim() === '') throw problem('must be a file path');
      return isAbsolute(value) ? value : resolve(base, value);
    }
    case 'url': {
      let url: URL | null = null;
      try {
        url = new URL(String(value));
      } catch {
        url = null;
      }
      if (url === null || (url.protocol !== 'http:' && url.protocol !== 'https:')) throw problem('must be an http(s) URL');
      return url.toString();
    }
    case 'postgres-url': {
      let url: URL | null = null;
      try {
        url = new URL(String(value));
      } catch {
        url = null;
      }
      if (url === null || (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') || url.hostname === '') {
        // Not echoed: the URL may carry a password.
        throw new OptionsError(`${where}: must be a PostgreSQL URL such as postgres://wafctl@db.internal:5432/wafctl`);
      }
      return String(value);
    }
    case 'redis-url': {
      let url: URL | null = null;
      try {
        url = new URL(String(value));
      } catch {
        url = null;
      }
      const db = url === null ? '' : url.pathname.replace(/^\//, '');
      if (url === null || (url.protocol !== 'redis:' && url.protocol !== 'rediss:') || url.hostname === '' || !/^\d*$/.test(db)) {
        // Not echoed: the URL may carry a password.
        throw new OptionsError(`${where}: must be a Redis URL such as redis://redis.internal:6379 or redis://:password@10.0.0.7:6379/0`);
      }
      return String(value);
    }
    case 'counter-failure': {
      if (value !== 'open' && value !== 'deny') throw problem('must be open or deny');
      return value;
    }
    case 'cidrs': {
      // Flags repeat, the variable is comma-separated, daemon.json holds an array.
      const items = Array.isArray(value) ? value : String(value).split(',');
      return items.map((item) => {
        const parsed = typeof item === 'string' ? parseIpRange(item) : null;
        if (parsed === null || !parsed.ok) {
          throw new OptionsError(`${where}: ${JSON.stringify(item)} is not an IP address or CIDR range${parsed ? ` (${parsed.reason})` : ''}`);
        }
        return parsed.range.text;
      });
    }
    case 'host': {
      if (typeof value !== 'string' || isIP(value) === 0) throw problem('must be an IP address such as 127.0.0.1, ::1, 0.0.0.0 or ::');
      return value;
    }
  }
}

function wholeNumber(value: Raw, min: number, max: number, problem: (what: string) => OptionsError, what: string): number {
  const n = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw problem(what);
  return n;
}
