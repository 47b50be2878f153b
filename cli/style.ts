// Colour, or its absence. Colour only helps a human at a terminal: never in pipes, files, CI
// logs, or when the user said NO_COLOR / --no-color.
import type { Env } from './io.js';

export interface Style {
  bold(text: string): string;
  dim(text: string): string;
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

export function colourWanted(options: { isTTY: boolean; env: Env; colorFlag: boolean }): boolean {
  if (!options.colorFlag || !options.isTTY) return false;
  // NO_COLOR: any non-empty value disables colour (https://no-color.org).
  if (options.env.NO_COLOR) return false;
  if (options.env.CI) return false;
  if (options.env.TERM === 'dumb') return false;
  return true;
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`;

export const colourStyle: Style = {
  bold: wrap(1, 22),
  dim: wrap(2, 22),
  red: wrap(31, 39),
  green: wrap(32, 39),
  yellow: wrap(33, 39),
};

const same = (text: string) => text;
export const plainStyle: Style = { bold: same, dim: same, red: same, green: same, yellow: same };

export function styleFor(options: { isTTY: boolean; env: Env; colorFlag: boolean }): Style {
  return colourWanted(options) ? colourStyle : plainStyle;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;]*m/g;

/** Printed width of a string: ANSI escapes take no columns. */
export function visibleLength(text: string): number {
  return [...text.replace(ANSI, '')].length;
}
