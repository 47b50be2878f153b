// A writable collection: TX for one transaction, and IP/GLOBAL/SESSION/USER/RESOURCE records
// kept between transactions. Keys compare case-insensitively; values are strings, as in
// ModSecurity (setvar arithmetic parses them as integers). Variables may carry an expiry
// (expirevar), after which they read as absent.
//
// The Map keeps the variables in insertion order (what TX:/regex/ and &TX see); variables whose
// name configuration spells out are also reachable by slot (name-slots.ts), which the compiled
// rules use instead of a lookup by string.
import { VarEntry } from './keyed-list.js';
import { existingNameSlot, nameSlotCount } from './name-slots.js';

interface StoredVar {
  key: string;
  value: string;
  /** Epoch ms after which the variable is gone; 0 = never. */
  expiresAt: number;
  /** The one-entry answer to byKey, rebuilt only when the value changes. */
  view: readonly VarEntry[] | undefined;
}

/** A variable of a template (exportVars / loadTemplate): its lower-cased name, name as set, value and
 *  name slot (-1: none). */
export interface TemplateVar {
  readonly lower: string;
  readonly key: string;
  readonly value: string;
  readonly slot: number;
}

const EMPTY: readonly VarEntry[] = [];
const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/** The bit of a one-digit name ('0'..'9': the capture variables TX:0..9), else 0. */
function digitBit(lower: string): number {
  if (lower.length !== 1) return 0;
  const d = lower.charCodeAt(0) - 48;
  return d >= 0 && d <= 9 ? 1 << d : 0;
}

function viewOf(found: StoredVar): readonly VarEntry[] {
  found.view ??= [new VarEntry(found.key, found.value)];
  return found.view;
}

export class MutableCollection {
  private readonly vars = new Map<string, StoredVar>();
  /** By name slot: the stored variables whose names have one. */
  private slots: Array<StoredVar | undefined> = [];
  /** nameSlotCount when `slots` last covered every stored name (a later load may number more). */
  private slotsFor = nameSlotCount;
  private snapshot: VarEntry[] | undefined;
  private hasExpiring = false;
  /** Which of the names '0'..'9' are stored (bit n: '<n>'): every match of a capturing rule
   *  unsets TX:0..9 first, and most of those are not there. */
  private digitNames = 0;

  constructor(readonly name: string) {}

  get(lowerKey: string, now = 0): string | undefined {
    return this.live(this.vars.get(lowerKey), now);
  }

  /** get() by name slot (the name's lower-cased form must be the slot's name). */
  getBySlot(slot: number, now = 0): string | undefined {
    return this.live(this.bySlot(slot), now);
  }

  private bySlot(slot: number): StoredVar | undefined {
    if (this.slotsFor !== nameSlotCount) this.renumber();
    return this.slots[slot];
  }

  /** Names numbered since this collection filled `slots` (a rule set loaded meanwhile). */
  private renumber(): void {
    for (const [lower, v] of this.vars) {
      const slot = existingNameSlot(lower);
      if (slot >= 0) this.slots[slot] = v;
    }
    this.slotsFor = nameSlotCount;
  }

  private live(found: StoredVar | undefined, now: number): string | undefined {
    if (found === undefined) return undefined;
    if (found.expiresAt !== 0 && now !== 0 && found.expiresAt <= now) return undefined;
    return found.value;
  }

  set(key: string, value: string): void {
    const lower = key.toLowerCase();
    this.store(this.vars.get(lower), lower, key, value, -2);
  }

  /** set() with the lower-cased key already at hand. */
  setLowered(lower: string, key: string, value: string): void {
    this.store(this.vars.get(lower), lower, key, value, -2);
  }

  /** set() with the lower-cased key and its slot already at hand (setvar computes them at load). */
  setBySlot(slot: number, lower: string, key: string, value: string): void {
    this.store(this.bySlot(slot), lower, key, value, slot);
  }

  /** Updates `found` or adds the variable; `slot` -2 = look the name's slot up. */
  private store(found: StoredVar | undefined, lower: string, key: string, value: string, slot: number): void {
    if (found) {
      if (found.value === value) return;
      found.value = value;
      found.view = undefined;
    } else {
      const created: StoredVar = { key, value, expiresAt: 0, view: undefined };
      this.vars.set(lower, created);
      this.digitNames |= digitBit(lower);
      const index = slot === -2 ? existingNameSlot(lower) : slot;
      if (index >= 0) this.slots[index] = created;
    }
    this.snapshot = undefined;
  }

  /** The variables, in order, as a template (none may carry an expiry). */
  exportVars(): TemplateVar[] {
    const out: TemplateVar[] = [];
    for (const [lower, v] of this.vars) {
      if (v.expiresAt !== 0) throw new Error(`${this.name}:${v.key} expires: not a template`);
      out.push({ lower, key: v.key, value: v.value, slot: existingNameSlot(lower) });
    }
    return out;
  }

  /** Fills an empty collection from a template (rules/init-fold.ts: TX at the start of phase 1).
   *  The slots are those of the template's rule set, taken when it was built: every name its rules
   *  read by slot had one by then (a slot numbered later, for another rule set, is only read by
   *  that set's rules). */
  loadTemplate(template: readonly TemplateVar[]): void {
    if (this.vars.size !== 0) throw new Error(`${this.name} is not empty`);
    if (this.slotsFor !== nameSlotCount) this.renumber();
    for (let i = 0; i < template.length; i++) {
      const t = template[i];
      const created: StoredVar = { key: t.key, value: t.value, expiresAt: 0, view: undefined };
      this.vars.set(t.lower, created);
      if (t.slot >= 0) this.slots[t.slot] = created;
      this.digitNames |= digitBit(t.lower);
    }
    this.snapshot = undefined;
  }

  delete(key: string): void {
    const lower = key.toLowerCase();
    if (!this.vars.delete(lower)) return;
    this.digitNames &= ~digitBit(lower);
    const slot = existingNameSlot(lower);
    if (slot >= 0) this.slots[slot] = undefined;
    this.snapshot = undefined;
  }

  /** delete(String(digit)) for 0..9, without a lookup when that name is not stored. */
  deleteDigit(digit: number): void {
    if ((this.digitNames & (1 << digit)) !== 0) this.delete(DIGITS[digit]);
  }

  /** Deletes every variable whose name matches. */
  deleteMatching(re: RegExp): void {
    for (const [lower, v] of this.vars) if (re.test(v.key)) this.delete(lower);
    this.snapshot = undefined;
  }

  clear(): void {
    this.vars.clear();
    this.slots = [];
    this.digitNames = 0;
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
    for (const [lower, v] of this.vars) if (v.expiresAt !== 0 && v.expiresAt <= now) this.delete(lower);
    this.snapshot = undefined;
  }

  byKey(lowerKey: string): readonly VarEntry[] {
    const found = this.vars.get(lowerKey);
    return found === undefined ? EMPTY : viewOf(found);
  }

  /** byKey() by name slot. */
  byKeySlot(slot: number): readonly VarEntry[] {
    const found = this.bySlot(slot);
    return found === undefined ? EMPTY : viewOf(found);
  }

  /** Names (as set) starting with `prefix`, without building an entry per variable as entries()
   *  does (the edge reads its rule counters from TX on every request: ~90 variables under CRS). */
  namesStartingWith(prefix: string): string[] {
    const names: string[] = [];
    for (const v of this.vars.values()) if (v.key.startsWith(prefix)) names.push(v.key);
    return names;
  }

  /** The entries whose names `test` selects, in order. Without the whole list entries() keeps:
   *  CRS reads TX by regex after most of its setvars (each of which drops that list), and a
   *  rebuild of ~100 entries per read was the largest share of a GET's garbage. */
  entriesWhere(test: (key: string) => boolean): readonly VarEntry[] {
    if (this.snapshot !== undefined) return this.snapshot.filter((e) => test(e.key));
    const selected: VarEntry[] = [];
    for (const v of this.vars.values()) if (test(v.key)) selected.push(viewOf(v)[0]);
    return selected;
  }

  entries(): readonly VarEntry[] {
    // The entries are the byKey views' own: unchanged variables keep their cached transformations.
    this.snapshot ??= [...this.vars.values()].map((v) => viewOf(v)[0]);
    return this.snapshot;
  }

  /** Some variable carries an expiry (expirevar): reads must then pass the time. */
  get expiring(): boolean {
    return this.hasExpiring;
  }

  get size(): number {
    return this.vars.size;
  }
}
