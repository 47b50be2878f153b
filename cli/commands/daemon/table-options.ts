// `wafctl daemon start` takes every daemon setting as a flag. The common ones are declared by hand in
// start.ts (with help text for a person starting a daemon); the rest come straight from the daemon's
// option table, so a setting added there (an edge limit, a timeout) is a `daemon start` flag at once,
// with the same name on both sides. Values pass through as typed: the daemon validates every setting
// in one place (daemon/options/resolve-options.ts) and `daemon start` prints its one-line refusal.
import { Option } from 'commander';
import { OPTION_ROWS, type OptionRow } from '../../../daemon/options/option-table.js';
import { collect } from '../../options.js';

/** Flags start.ts declares itself. */
const HAND_DECLARED = new Set([
  'foreground', 'edge-port', 'edge-tls-port', 'api-port', 'admin-socket', 'crs-dir', 'audit-log', 'workers',
  'demo', 'demo-port', 'listen-host', 'tls-cert', 'tls-key',
]);

export type TableOptionValues = Record<string, string | string[] | boolean | undefined>;

const tableRows = (): OptionRow[] => OPTION_ROWS.filter((row) => !HAND_DECLARED.has(row.flag));

export function daemonTableOptions(): Option[] {
  return tableRows().map((row) => {
    if (row.kind === 'bool') return new Option(`--${row.flag}`, row.help);
    const option = new Option(`--${row.flag} <${valueName(row)}>`, helpWithDefault(row));
    return row.kind === 'cidrs' ? option.argParser(collect) : option;
  });
}

/** The daemon's command line for the table options that were given. */
export function tableArgv(values: TableOptionValues): string[] {
  const argv: string[] = [];
  for (const row of tableRows()) {
    const value = values[attributeOf(row.flag)];
    if (value === undefined || value === false) continue;
    if (value === true) argv.push(`--${row.flag}`);
    else for (const one of Array.isArray(value) ? value : [value]) argv.push(`--${row.flag}`, one);
  }
  return argv;
}

function attributeOf(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

function valueName(row: OptionRow): string {
  switch (row.kind) {
    case 'cidrs': return 'cidr';
    case 'millis': return 'ms';
    case 'url':
    case 'postgres-url': return 'url';
    case 'path': return 'path';
    default: return 'n';
  }
}

function helpWithDefault(row: OptionRow): string {
  const fallback = row.fallback('<data>');
  const shown = Array.isArray(fallback) ? (fallback.length === 0 ? 'none' : fallback.join(',')) : fallback;
  return shown === null ? row.help : `${row.help} (default ${shown}${row.kind === 'cidrs' ? '; repeatable' : ''})`;
}
