// Matched data as shown: at most SHOWN_CHARS characters, and control characters (a newline or
// an escape sequence in an attack payload would rewrite the operator's terminal) as \xNN.
export const SHOWN_CHARS = 200;

export function shownText(value: string): string {
  const chars = [...value];
  const cut = chars.length > SHOWN_CHARS ? chars.slice(0, SHOWN_CHARS).join('') + `… (${chars.length} characters)` : value;
  return cut.replace(/[\x00-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}
