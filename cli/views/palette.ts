// Colour for the views, or none: with NO_COLOR, --no-color, CI or TERM=dumb every colour prop is
// left out (cli/style.ts decides), and the views mark selection with `›` so nothing depends on colour.
export interface Palette {
  accent?: string;
  danger?: string;
  ok?: string;
  muted?: string;
  warn?: string;
}

export function paletteFor(colour: boolean): Palette {
  return colour ? { accent: 'cyan', danger: 'red', ok: 'green', muted: 'gray', warn: 'yellow' } : {};
}
