// Where a command's words go. Data goes to stdout (exact JSON with --json, a table or field block
// otherwise); messages go to stderr, where -q silences all but errors and -v adds detail.
import type { CliError } from './cli-error.js';
import type { Io } from './io.js';
import { styleFor, type Style } from './style.js';
import { renderFields, renderTable, type Column } from './table.js';

/** The global options every command sees (see program.ts). */
export interface GlobalOptions {
  json: boolean;
  quiet: boolean;
  verbose: boolean;
  color: boolean;
  dataDir?: string;
  server?: string;
  site?: string;
}

export const defaultGlobals: GlobalOptions = { json: false, quiet: false, verbose: false, color: true };

export class Output {
  readonly style: Style;
  private readonly tableWidth: number | undefined;

  constructor(
    private readonly io: Io,
    readonly globals: GlobalOptions,
  ) {
    this.style = styleFor({ isTTY: io.isTTY, env: io.env, colorFlag: globals.color });
    this.tableWidth = tableWidthFor(io);
  }

  get json(): boolean {
    return this.globals.json;
  }

  /** Exactly `value` as JSON with --json; otherwise whatever `human` renders. */
  data(value: unknown, human: () => string): void {
    if (this.globals.json) {
      this.io.stdout.write(JSON.stringify(value, null, 2) + '\n');
      return;
    }
    const text = human();
    if (text) this.io.stdout.write(text.endsWith('\n') ? text : text + '\n');
  }

  /** A list: a table for humans, the list itself (`[]` when empty) for --json. */
  list<Row>(rows: readonly Row[], columns: readonly Column<Row>[], options: { empty: string; json?: unknown } = { empty: '' }): void {
    if (this.globals.json) {
      this.data(options.json ?? rows, () => '');
      return;
    }
    if (rows.length === 0) {
      // "No sites." is a message, not data: a pipe reading stdout sees nothing.
      if (options.empty) this.info(options.empty);
      return;
    }
    this.io.stdout.write(renderTable(rows, columns, { maxWidth: this.tableWidth, style: this.style }));
  }

  /** One object: a field block for humans, `json` (default: the fields as an object) for --json. */
  fields(fields: ReadonlyArray<readonly [string, string]>, json: unknown): void {
    this.data(json, () => renderFields(fields, this.style));
  }

  info(message: string): void {
    if (!this.globals.quiet) this.io.stderr.write(message + '\n');
  }

  detail(message: string): void {
    if (this.globals.verbose) this.io.stderr.write(message + '\n');
  }

  warn(message: string): void {
    this.io.stderr.write(`warning: ${message}\n`);
  }

  error(error: Pick<CliError, 'code' | 'message' | 'hint'>): void {
    this.io.stderr.write(formatError(error));
  }
}

/** The one error format: `error: <code>: <message>` and, where it helps, `hint: ...`. */
export function formatError(error: Pick<CliError, 'code' | 'message' | 'hint'>): string {
  let text = `error: ${error.code}: ${error.message}\n`;
  if (error.hint) text += `hint: ${error.hint}\n`;
  return text;
}

/** The width a table must fit: the terminal's, or $COLUMNS for pipes when set, else unlimited. */
export function tableWidthFor(io: Io): number | undefined {
  if (io.isTTY && io.columns && io.columns > 0) return io.columns;
  const fromEnv = Number(io.env.COLUMNS);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : undefined;
}
