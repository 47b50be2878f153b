// What can be read from the bytes of a request head node's parser refused (err.rawPacket: the
// read it failed in; err.bytesParsed: where). Best effort and bounded: the head is taken to start
// after the last blank line before the failure (a request pipelined before it ended there) and
// to end at the next blank line or the end of the read. Bytes are read as latin1 (one char each).

export interface RawHead {
  readonly method: string;
  readonly target: string;
  /** The Host field's value, if the head holds one. */
  readonly host: string | undefined;
  readonly userAgent: string | undefined;
  /** The request line as received (or its start). */
  readonly line: string;
}

const BLANK = Buffer.from('\r\n\r\n');
/** The part of a read a head is looked for in: node's head limit is about this size anyway. */
const MAX_HEAD = 64 * 1024;

/** Where the head the parser failed in starts in the read: after the last blank line before the
 *  failure (a request pipelined before it ended there), else at the start of the read. */
export function headStart(raw: Buffer, failedAt: number): number {
  const at = Math.max(0, Math.min(failedAt, raw.length));
  const before = at === 0 ? -1 : raw.lastIndexOf(BLANK, at - 1);
  return before === -1 || before + 4 > at ? 0 : before + 4;
}

export function parsedHead(raw: Buffer | undefined, failedAt: number): RawHead {
  if (!raw || raw.length === 0) return { method: '', target: '', host: undefined, userAgent: undefined, line: '' };
  const start = headStart(raw, failedAt);
  let end = raw.indexOf(BLANK, start);
  if (end === -1) end = raw.length;
  const text = raw.subarray(start, Math.min(end, start + MAX_HEAD)).toString('latin1');
  const lines = text.split(/\r?\n/);
  const line = lines[0];
  const firstSpace = line.indexOf(' ');
  const method = firstSpace === -1 ? line : line.slice(0, firstSpace);
  const rest = firstSpace === -1 ? '' : line.slice(firstSpace + 1);
  const lastSpace = rest.lastIndexOf(' ');
  const target = lastSpace === -1 || !/^HTTP\//i.test(rest.slice(lastSpace + 1)) ? rest : rest.slice(0, lastSpace);
  return { method: method.slice(0, 32), target, host: field(lines, 'host'), userAgent: field(lines, 'user-agent'), line };
}

function field(lines: string[], name: string): string | undefined {
  for (let i = 1; i < lines.length; i++) {
    const colon = lines[i].indexOf(':');
    if (colon === name.length && lines[i].slice(0, colon).toLowerCase() === name) return lines[i].slice(colon + 1).trim();
  }
  return undefined;
}
