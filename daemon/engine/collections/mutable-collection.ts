// A writable collection: TX for one transaction, and IP/GLOBAL/SESSION/USER/RESOURCE records
// kept between transactions. Keys compare case-insensitively; values are strings, as in
// ModSecurity (setvar arithmetic parses them as integers). Variables may carry an expiry
// (expirevar), after which they read as absent.
import { VarEntry } from './keyed-list.js';

interface StoredVar {
  key: string;
  value: string;
  /** Epoch ms after which the variable is gone; 0 = never. */
  expiresAt: number;
  /** The one-entry answer to byKey, rebuilt only when the value changes. */
  view: readonly VarEntry[] | undefined;
}

const EMPTY: readonly VarEntry[] = [];

export class MutableCollection {
  private readonly vars = new Map<string, StoredVar>();
  private snapshot: VarEntry[] | undefined;
  private hasExpiring = false;

  constructor(readonly name: string) {}

  get(lowerKey: string, now = 0): string | undefined {
    const found = this.vars.get(lowerKey);
    if (found === undefined) return undefined;
    if (found.expiresAt !== 0 && now !== 0 && found.expiresAt <= now) return undefined;
    return found.value;
  }

  set(key: string, value: string): void {
    const lower = key.toLowerCase();
    const found = this.vars.get(lower);
    if (found) {
      if (found.value === value) return;
      found.value = value;
      found.view = undefined;
    } else this.vars.set(lower, { key, value, expiresAt: 0, view: undefined });
    this.snapshot = undefined;
  }

  delete(key: string): void {
    if (this.vars.delete(key.toLowerCase())) this.snapshot = undefined;
  }

  /** Deletes every variable whose name matches. */
  deleteMatching(re: RegExp): void {
    for (const [lower, v] of this.vars) if (re.test(v.key)) this.vars.delete(lower);
    this.snapshot = undefined;
  }

  clear(): void {
    this.vars.clear();
    this.snapshot = undefined;
  }

  expire(key: string, atMs: number): void {
    const found = this.vars.get(key.toLowerCase());
    if (found) {
      found.expiresAt = atMs;
      this.hasExpiring = true;
    }
  }

  /** Drops expired variables (called when a persistent record is loaded). */
  purgeExpired(now: number): void {
    if (!this.hasExpiring) return;
    for (const [lower, v] of this.vars) if (v.expiresAt !== 0 && v.expiresAt <= now) this.vars.delete(lower);
    this.snapshot = undefined;
  }

  byKey(lowerKey: string): readonly VarEntry[] {
    const found = this.vars.get(lowerKey);
    if (found === undefined) return EMPTY;
    found.view ??= [new VarEntry(found.key, found.value)];
    return found.view;
  }

  entries(): readonly VarEntry[] {
    this.snapshot ??= [...this.vars.values()].map((v) => new VarEntry(v.key, v.value));
    return this.snapshot;
  }

  get size(): number {
    return this.vars.size;
  }
}
