// The URIs of one site's WAF events, in position order, kept for two jobs: case-insensitive
// substring search and the `uri` field of result rows.
//
// Every 16,384 events are sealed into two flat strings, the URIs as sent and the same
// lower-cased, joined by '\n', with one offset table for both. Search runs
// String.prototype.indexOf over the lower-cased blob (far faster than testing a million
// small strings); rows slice the original. Flat strings cost about one byte per character
// and no per-URI object, which keeps the heap small and snapshots quick to load.
import { unpackOrDamage } from './snapshot-damage.js';
import type { ChunkSpill, SpillRef, SpillSlot } from './chunk-spill.js';

const CHUNK_BITS = 14;
export const CHUNK_SIZE = 1 << CHUNK_BITS;

export interface SealedUris {
  orig: string;
  /**
   * Null when lower-casing changes nothing in the chunk; undefined when it does but the
   * twin has not been made yet (a restored chunk gets it on its first search).
   */
  lower: string | null | undefined;
  /** offsets[i] = start of line i; offsets[CHUNK_SIZE] = length + 1. */
  offsets: Uint32Array;
}

/**
 * A sealed chunk as a snapshot stores it (deflated), unpacked on first use: an open then
 * inflates and decodes no URI text (~56 MB for 1M events, the largest part of the index),
 * and only the chunks that rows or searches touch are ever unpacked. A snapshot writes a
 * chunk that was never unpacked back as stored.
 */
export interface PackedUris {
  unpack(): { orig: string; offsets: Uint32Array };
  /** Lower-casing changes something in the chunk. */
  lowered: boolean;
  /** The stored form, opaque here (index-snapshot.ts writes it back). */
  stored: unknown;
}

export interface UriColumnSnapshot {
  sealed: (SealedUris | PackedUris)[];
  open: string[];
}

/** A sealed chunk the spill took out of memory (chunk-spill.ts): its text and offsets in the spill file. */
interface SpilledUris {
  ref: SpillRef;
  /** Bytes the chunk holds once read back. */
  bytes: number;
}

/** A string that does not share its parent's memory (V8 makes a new flat string for a concatenation). */
const flatCopy = (s: string): string => (` ${s}`).slice(1);

const isPacked = (ch: SealedUris | PackedUris | SpilledUris): ch is PackedUris => 'unpack' in ch;
const isSpilled = (ch: SealedUris | PackedUris | SpilledUris): ch is SpilledUris => 'ref' in ch;
/** Memory a sealed chunk holds: its strings (about a byte a character) and offsets. */
const chunkBytes = (ch: SealedUris): number => ch.orig.length + (ch.lower ? ch.lower.length : 0) + ch.offsets.byteLength;

/** A line as stored: one line, and its lower-case twin of the same length (exotic case maps that change the length keep the original). */
const oneLine = (uri: string): string => (uri.includes('\n') ? uri.replace(/\n/g, ' ') : uri);
const foldSameLength = (s: string): string => {
  const l = s.toLowerCase();
  return l.length === s.length ? l : s;
};

/**
 * The lower-cased twin of a sealed blob, line by line as push() makes it: one call when
 * lower-casing keeps every length (the usual case), line by line otherwise.
 */
export function lowerBlob(orig: string): string {
  const l = orig.toLowerCase();
  if (l.length === orig.length) return l;
  return orig.split('\n').map(foldSameLength).join('\n');
}

/** Spill file layout of a chunk: u32 flags (1: lower-casing changes it), the offsets, the text as UTF-8. */
function encodeSpilled(ch: SealedUris): Uint8Array {
  const text = Buffer.from(ch.orig, 'utf8');
  const out = Buffer.allocUnsafe(4 + ch.offsets.byteLength + text.length);
  out.writeUInt32LE(ch.lower === null ? 0 : 1, 0);
  Buffer.from(ch.offsets.buffer, ch.offsets.byteOffset, ch.offsets.byteLength).copy(out, 4);
  text.copy(out, 4 + ch.offsets.byteLength);
  return out;
}

function decodeSpilled(raw: Buffer): SealedUris {
  const offBytes = (CHUNK_SIZE + 1) * 4;
  const offsets = new Uint32Array(CHUNK_SIZE + 1);
  Buffer.from(offsets.buffer).set(raw.subarray(4, 4 + offBytes));
  const orig = raw.toString('utf8', 4 + offBytes);
  return { orig, lower: raw.readUInt32LE(0) === 0 ? null : undefined, offsets };
}

/** A resident sealed chunk as the spill sees it. */
class SealedSlot implements SpillSlot {
  constructor(
    private readonly column: UriColumn,
    private readonly c: number,
    readonly bytes: number,
  ) {}
  spillOut(spill: ChunkSpill): void {
    this.column.spillChunk(this.c, spill);
  }
}

export class UriColumn {
  private sealed: (SealedUris | PackedUris | SpilledUris)[] = [];
  /** Set: sealed chunks may leave memory (chunk-spill.ts). */
  private spill: ChunkSpill | null = null;
  private openOrig: string[] = [];
  /**
   * Lower-cased twins of the open URIs, made by search() for the URIs it has not seen yet:
   * an append only stores the URI (lower-casing one URI at a time costs every append; the
   * seal lower-cases its whole blob in one call, and searches of the open chunk are rare).
   */
  private openLower: string[] = [];
  length = 0;

  push(uri: string): void {
    this.openOrig.push(oneLine(uri));
    this.length++;
    if (this.openOrig.length === CHUNK_SIZE) this.seal();
  }

  get(pos: number): string {
    const c = pos >>> CHUNK_BITS;
    const line = pos & (CHUNK_SIZE - 1);
    if (c < this.sealed.length) {
      const spilled = isSpilled(this.sealed[c]);
      const ch = this.chunk(c);
      const uri = ch.orig.slice(ch.offsets[line], ch.offsets[line + 1] - 1);
      // A slice keeps its whole chunk alive; a chunk read back from the spill is a new string
      // each time it is read, so a copy is kept instead (retention keeps millions of these).
      return spilled ? flatCopy(uri) : uri;
    }
    return this.openOrig[line];
  }

  /**
   * Positions (ascending) below `limit` whose URI contains `needle` (already lower-cased).
   * A needle with a line break matches nothing: stored URIs are one line.
   */
  search(needle: string, limit: number): number[] {
    const out: number[] = [];
    if (needle.includes('\n') || limit <= 0) return out;
    for (let c = 0; c < this.sealed.length; c++) {
      const base = c << CHUNK_BITS;
      if (base >= limit) return out;
      const ch = this.chunk(c);
      if (ch.lower === undefined) ch.lower = lowerBlob(ch.orig);
      const { orig, lower, offsets } = ch;
      const text = lower ?? orig;
      let from = 0;
      let line = 0;
      for (;;) {
        const at = text.indexOf(needle, from);
        if (at < 0) break;
        line = lineHolding(offsets, line, at);
        if (base + line >= limit) return out;
        out.push(base + line);
        from = offsets[line + 1];
        line++;
      }
    }
    const base = this.sealed.length << CHUNK_BITS;
    const n = Math.min(this.openOrig.length, limit - base);
    const lower = this.openLower;
    for (let i = lower.length; i < n; i++) lower.push(foldSameLength(this.openOrig[i]));
    for (let i = 0; i < n; i++) if (lower[i].includes(needle)) out.push(base + i);
    return out;
  }

  /**
   * Positions (ascending) below `limit` whose URI, percent-decoded (and `+` as a space in the
   * query), contains `needle` (already lower-cased). URIs are stored as sent, so `union select`
   * is stored as `union%20select`; only a URI holding `%` or `+` can decode to other text, so
   * only those are decoded, found by indexOf over the blob as search() finds its needle.
   */
  searchDecoded(needle: string, limit: number): number[] {
    const out: number[] = [];
    if (needle.includes('\n') || limit <= 0) return out;
    for (let c = 0; c < this.sealed.length; c++) {
      const base = c << CHUNK_BITS;
      if (base >= limit) return out;
      const { orig, offsets } = this.chunk(c);
      let line = 0;
      for (;;) {
        const at = nextEncoded(orig, offsets[line]);
        if (at < 0) break;
        line = lineHolding(offsets, line, at);
        if (base + line >= limit) return out;
        if (decodedContains(orig.slice(offsets[line], offsets[line + 1] - 1), needle)) out.push(base + line);
        line++;
        if (line >= CHUNK_SIZE) break;
      }
    }
    const base = this.sealed.length << CHUNK_BITS;
    const n = Math.min(this.openOrig.length, limit - base);
    for (let i = 0; i < n; i++) {
      const uri = this.openOrig[i];
      if (nextEncoded(uri, 0) >= 0 && decodedContains(uri, needle)) out.push(base + i);
    }
    return out;
  }

  /** Spilled chunks are read back for it (transient: the snapshot's copy). */
  snapshot(): UriColumnSnapshot {
    return { sealed: this.sealed.map((ch) => (isSpilled(ch) ? this.readSpilled(ch) : ch)), open: this.openOrig.slice() };
  }

  /** A column whose sealed chunks may be spilled by `spill`. */
  static withSpill(spill: ChunkSpill | null): UriColumn {
    const col = new UriColumn();
    col.spill = spill;
    return col;
  }

  /** Called by the spill: writes sealed chunk c to it and drops it from memory. */
  spillChunk(c: number, spill: ChunkSpill): void {
    const ch = this.sealed[c];
    if (isPacked(ch) || isSpilled(ch)) return;
    const bytes = chunkBytes(ch);
    this.sealed[c] = { ref: spill.write(encodeSpilled(ch)), bytes };
  }

  static restore(s: UriColumnSnapshot, spill: ChunkSpill | null = null): UriColumn {
    const col = UriColumn.withSpill(spill);
    col.sealed = s.sealed.slice();
    if (spill !== null) col.sealed.forEach((ch, c) => { if (!isPacked(ch) && !isSpilled(ch)) spill.admit(new SealedSlot(col, c, chunkBytes(ch))); });
    col.length = col.sealed.length * CHUNK_SIZE;
    for (const u of s.open) col.push(u);
    return col;
  }

  /** Sealed chunk c, unpacked if it was still as stored. */
  private chunk(c: number): SealedUris {
    const ch = this.sealed[c];
    if (isSpilled(ch)) return this.readSpilled(ch);
    if (!isPacked(ch)) return ch;
    const { orig, offsets } = unpackOrDamage('waf', `URI chunk ${c}`, () => {
      const u = ch.unpack();
      if (u.offsets.length !== CHUNK_SIZE + 1 || u.offsets[CHUNK_SIZE] !== u.orig.length) throw new Error('offsets do not fit its text');
      return u;
    });
    const unpacked: SealedUris = { orig, lower: ch.lowered ? undefined : null, offsets };
    this.sealed[c] = unpacked;
    // Counted as the twin will be (search makes it): the budget is what the chunk will hold.
    this.spill?.admit(new SealedSlot(this, c, chunkBytes(unpacked) + (ch.lowered ? orig.length : 0)));
    return unpacked;
  }

  /** A spilled chunk read back (cached by the spill; its lower-cased twin is kept with it once made). */
  private readSpilled(ch: SpilledUris): SealedUris {
    return this.spill!.read(ch.ref, decodeSpilled, ch.bytes);
  }

  private seal(): void {
    const offsets = new Uint32Array(CHUNK_SIZE + 1);
    let at = 0;
    for (let i = 0; i < CHUNK_SIZE; i++) {
      offsets[i] = at;
      at += this.openOrig[i].length + 1;
    }
    offsets[CHUNK_SIZE] = at;
    const orig = this.openOrig.join('\n') + '\n';
    const lower = lowerBlob(orig);
    const sealed: SealedUris = { orig, lower: lower === orig ? null : lower, offsets };
    this.sealed.push(sealed);
    this.spill?.admit(new SealedSlot(this, this.sealed.length - 1, chunkBytes(sealed)));
    this.openOrig = [];
    this.openLower = [];
  }
}

/** The next `%` or `+` at or after `from`, or -1. */
function nextEncoded(text: string, from: number): number {
  const pct = text.indexOf('%', from);
  const plus = text.indexOf('+', from);
  if (pct < 0) return plus;
  if (plus < 0) return pct;
  return Math.min(pct, plus);
}

/** The URI percent-decoded (a `+` in the query as a space), lower-cased, contains `needle`. */
export function decodedContains(uri: string, needle: string): boolean {
  return decodeUriLeniently(uri).toLowerCase().includes(needle);
}

/**
 * Percent-decoding that never throws: UTF-8 when the escapes form valid UTF-8, otherwise each
 * valid `%XX` as the byte's Latin-1 character and a broken escape left as it is (attack traffic
 * sends both).
 */
export function decodeUriLeniently(uri: string): string {
  const q = uri.indexOf('?');
  const spaced = q < 0 ? uri : uri.slice(0, q) + uri.slice(q).replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced.replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
}

/** The line of a chunk holding blob position `at`: the last line from `first` on whose offset is <= at. */
function lineHolding(offsets: ArrayLike<number>, first: number, at: number): number {
  let lo = first;
  let hi = CHUNK_SIZE;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (offsets[mid + 1] <= at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
