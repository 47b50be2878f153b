// Aligned text tables that fit the terminal. Cells are plain text; colour is applied after
// fitting so truncation never cuts an escape sequence in half.
import { plainStyle, type Style } from './style.js';

export interface Column<Row> {
  header: string;
  value(row: Row): string;
  align?: 'left' | 'right';
  /** Colour for a cell, given its plain text (applied after truncation). */
  paint?(text: string, style: Style, row: Row): string;
}

const GAP = '  ';
const ELLIPSIS = '…';
/** A column is never squeezed below this, so every column keeps a readable stub. */
const MIN_COLUMN_WIDTH = 4;

const width = (text: string) => [...text].length;

function truncate(text: string, max: number): string {
  const chars = [...text];
  if (chars.length <= max) return text;
  if (max <= 1) return chars.slice(0, max).join('');
  return chars.slice(0, max - 1).join('') + ELLIPSIS;
}

/**
 * Column widths that fit in maxWidth: the widest column gives up a character at a time until the
 * row fits or every column is at its minimum (then the table is as narrow as it can be).
 */
export function fitWidths(natural: number[], maxWidth: number | undefined): number[] {
  const widths = [...natural];
  if (maxWidth === undefined) return widths;
  const total = () => widths.reduce((sum, w) => sum + w, 0) + GAP.length * Math.max(0, widths.length - 1);
  while (total() > maxWidth) {
    let widest = -1;
    for (let i = 0; i < widths.length; i++) {
      if (widths[i] > MIN_COLUMN_WIDTH && (widest < 0 || widths[i] > widths[widest])) widest = i;
    }
    if (widest < 0) break;
    widths[widest]--;
  }
  return widths;
}

export function renderTable<Row>(
  rows: readonly Row[],
  columns: readonly Column<Row>[],
  options: { maxWidth?: number; style?: Style } = {},
): string {
  const style = options.style ?? plainStyle;
  // Tabs and newlines in data would break alignment: show them as spaces.
  const cells = rows.map((row) => columns.map((c) => c.value(row).replace(/[\t\r\n]+/g, ' ')));
  const natural = columns.map((c, i) => Math.max(width(c.header), ...cells.map((r) => width(r[i]))));
  const widths = fitWidths(natural, options.maxWidth);

  const line = (texts: string[], paint: (text: string, i: number) => string) =>
    texts
      .map((text, i) => {
        const fitted = truncate(text, widths[i]);
        const pad = ' '.repeat(widths[i] - width(fitted));
        const painted = paint(fitted, i);
        const isLast = i === texts.length - 1;
        if (columns[i].align === 'right') return pad + painted;
        return isLast ? painted : painted + pad;
      })
      .join(GAP);

  const out = [line(columns.map((c) => c.header), (t) => style.bold(t))];
  cells.forEach((rowCells, r) => {
    out.push(line(rowCells, (t, i) => columns[i].paint?.(t, style, rows[r]) ?? t));
  });
  return out.join('\n') + '\n';
}

/**
 * A two-column "field  value" block for one object (site show, daemon status). Values are never
 * truncated: some of them (an API key shown once) must be copied whole.
 */
export function renderFields(fields: ReadonlyArray<readonly [string, string]>, style: Style = plainStyle): string {
  const labelWidth = Math.max(0, ...fields.map(([label]) => width(label)));
  return fields.map(([label, value]) => style.bold(label.padEnd(labelWidth)) + GAP + value).join('\n') + '\n';
}
