// A read-only, ordered, possibly repeating list of name/value pairs (ARGS, REQUEST_HEADERS,
// REQUEST_COOKIES, ...). Names compare case-insensitively, as in ModSecurity v2's APR tables;
// the lower-cased index is built on the first keyed lookup only.
//
// Every value a rule looks at is a VarEntry made by this one constructor, so the evaluator's
// property loads on entries see a single hidden class.
export class VarEntry {
  /** The entry holding the per-value caches below: itself, or the first entry of its list with
   *  the same value (a JSON array of objects repeats names and values hundreds of times). */
  readonly leader: VarEntry;
  /** Transformation results of `value` by trie step id, filled by the transaction. A result
   *  depends on the value only, so it may live on the entry for the entry's lifetime. */
  transformed: Array<string | undefined> | undefined = undefined;
  /** Which transformations `value` could make do something (rules/transform-chain.ts); -1 until
   *  computed. */
  byteClasses = -1;
  /** This value's operator-miss bits (one bit per rule, Rule.missBit: the rule's operator
   *  returned false on it): `missWords` words from `missRow` in `misses`, a table of the rule
   *  set's memo or of the transaction (rules/miss-memo.ts, rules/transaction-misses.ts). */
  misses: Int32Array | undefined = undefined;
  missRow = -1;
  /** The memo of the rule set whose bit numbers `misses` holds, once set. */
  missOwner: object | undefined = undefined;
  /** Scratch mark for one pass over a list (rules/distinct-values.ts). */
  mark = 0;
  /** Which byte classes `value` holds (rules/byte-gate.ts), two 31-bit masks; -1 until computed. */
  gateLo = -1;
  gateHi = -1;
  /** MATCHED_VAR_NAME for this entry (`ARGS_NAMES:items.items.name`) and the variable it was made
   *  for: built once, and shared by entries of the same name through their leader, so macros and
   *  setvar names built from it meet the same string again (rules/evaluate.ts). */
  matchedName: string | undefined = undefined;
  matchedNameOf: string | undefined = undefined;

  constructor(
    /** The name as sent ('' for a scalar variable). */
    readonly key: string,
    readonly value: string,
    leader?: VarEntry,
  ) {
    this.leader = leader ?? this;
  }
}

/** Lists this long look for repeated values (a Map per list does not pay on a handful). */
export const SHARE_FROM = 16;

/** Entries for `pairs`; in long lists, equal values share one leader. */
function entriesOf(pairs: ReadonlyArray<readonly [string, string]>): VarEntry[] {
  if (pairs.length < SHARE_FROM) return pairs.map(([key, value]) => new VarEntry(key, value));
  const leaders = new Map<string, VarEntry>();
  return pairs.map(([key, value]) => sharing(leaders, key, value));
}

/** The *_NAMES entries of `entries` (each value its name), built without a list of pairs. */
function nameEntriesOf(entries: readonly VarEntry[]): VarEntry[] {
  if (entries.length < SHARE_FROM) return entries.map((e) => new VarEntry(e.key, e.key));
  const leaders = new Map<string, VarEntry>();
  return entries.map((e) => sharing(leaders, e.key, e.key));
}

/** A new entry whose leader is the first one made with the same value. */
function sharing(leaders: Map<string, VarEntry>, key: string, value: string): VarEntry {
  const leader = leaders.get(value);
  if (leader !== undefined) return new VarEntry(key, value, leader);
  const entry = new VarEntry(key, value);
  leaders.set(value, entry);
  return entry;
}

const EMPTY: readonly VarEntry[] = [];

export class KeyedList {
  private index: Map<string, VarEntry[]> | undefined;
  private namesList: KeyedList | undefined;

  constructor(readonly entries: readonly VarEntry[]) {}

  static fromPairs(pairs: ReadonlyArray<readonly [string, string]>): KeyedList {
    return new KeyedList(entriesOf(pairs));
  }

  /** Entries whose name equals `lowerKey` (already lower-cased). */
  byKey(lowerKey: string): readonly VarEntry[] {
    if (this.index === undefined) {
      this.index = new Map();
      for (const entry of this.entries) {
        const lower = entry.key.toLowerCase();
        const list = this.index.get(lower);
        if (list) list.push(entry);
        else this.index.set(lower, [entry]);
      }
    }
    return this.index.get(lowerKey) ?? EMPTY;
  }

  /** The *_NAMES view: each entry's value is its name. */
  names(): KeyedList {
    this.namesList ??= new KeyedList(nameEntriesOf(this.entries));
    return this.namesList;
  }

  concat(other: KeyedList): KeyedList {
    if (other.entries.length === 0) return this;
    if (this.entries.length === 0) return other;
    return new KeyedList([...this.entries, ...other.entries]);
  }
}

export const EMPTY_LIST = new KeyedList(EMPTY);
