// The process-wide index of every @rx's literal clauses: one scan per distinct value finds, for
// all regexes at once, which clauses hold; a regex runs only when all of its clauses do.
//
// Why process-wide: an operator factory only sees its own parameter, so the index gathers what
// every compiled @rx registers (atoms and clauses are interned, so loading CRS twice adds
// nothing) and (re)builds its scanner on the first scan after a registration. Scan results are a
// pure function of the value, cached per transaction (keyed by the OperatorRuntime object the
// transaction hands to operators) and bounded in size, so nothing depends on that identity for
// correctness.
import { AtomScanner } from './atom-scanner.js';
import type { Clause } from './clauses.js';
import { ScanCache } from './scan-cache.js';

/** A regex's literal condition, compiled: false means the regex cannot match `input`. */
export type LiteralGate = (input: string, scope: object) => boolean;

/** The condition over a value's clause bitset `bits[at ..]`: false means the regex cannot match. */
export type ClauseTest = (bits: Int32Array, at: number) => boolean;

export class LiteralIndex {
  private readonly atomIds = new Map<string, number>();
  private readonly atoms: string[] = [];
  private readonly clauseIds = new Map<string, number>();
  private readonly clauseAtoms: number[][] = [];
  private scanner: AtomScanner | undefined;
  private readonly caches = new WeakMap<object, ScanCache>();
  private lastScope: object | undefined;
  private lastCache: ScanCache | undefined;

  get clauseCount(): number {
    return this.clauseAtoms.length;
  }

  /** A gate for a regex whose every match satisfies all `clauses`; undefined when there are none. */
  gate(clauses: readonly Clause[]): LiteralGate | undefined {
    const test = this.clauseTest(clauses);
    if (test === undefined) return undefined;
    return (input, scope) => {
      const cache = this.scanCache(scope);
      const at = cache.offsetOf(input);
      return at < 0 || test(cache.bits, at);
    };
  }

  /**
   * The same condition over a bitset already found (`ScanCache.offsetOf`): for a caller that keeps
   * a value's offset itself, e.g. beside the value's cached transformation result, and so needs no
   * lookup by string per (rule, value) pair. Undefined when there are no clauses.
   */
  clauseTest(clauses: readonly Clause[]): ClauseTest | undefined {
    if (clauses.length === 0) return undefined;
    const ids = clauses.map((c) => this.clauseId(c));
    if (ids.length === 1) {
      const word = ids[0] >>> 5, mask = 1 << (ids[0] & 31);
      return (bits, at) => (bits[at + word] & mask) !== 0;
    }
    const words = Int32Array.from(ids, (id) => id >>> 5);
    const masks = Int32Array.from(ids, (id) => 1 << (id & 31));
    return (bits, at) => {
      for (let i = 0; i < words.length; i++) if ((bits[at + words[i]] & masks[i]) === 0) return false;
      return true;
    };
  }

  /** Builds the scanner now rather than on the first scan (call after loading rules). */
  prepare(): void {
    this.currentScanner();
  }

  /** The scan cache of `scope` (a transaction, or the runtime it hands to operators); a new one
   *  when the scanner was rebuilt since. Offsets from an older cache must not be reused. */
  scanCache(scope: object): ScanCache {
    if (scope === this.lastScope && this.lastCache !== undefined && this.scanner !== undefined) return this.lastCache;
    const scanner = this.currentScanner();
    let cache = this.caches.get(scope);
    if (cache === undefined || cache.scanner !== scanner) {
      cache = new ScanCache(scanner);
      this.caches.set(scope, cache);
    }
    this.lastScope = scope;
    this.lastCache = cache;
    return cache;
  }

  private currentScanner(): AtomScanner {
    if (this.scanner === undefined) {
      const atomClauses: number[][] = this.atoms.map(() => []);
      this.clauseAtoms.forEach((atoms, clause) => {
        for (const a of atoms) atomClauses[a].push(clause);
      });
      this.scanner = new AtomScanner(this.atoms, atomClauses, this.clauseAtoms.length);
    }
    return this.scanner;
  }

  private clauseId(clause: Clause): number {
    const atoms = [...new Set(clause)].sort();
    const key = atoms.join('\0');
    let id = this.clauseIds.get(key);
    if (id === undefined) {
      id = this.clauseAtoms.length;
      this.clauseIds.set(key, id);
      this.clauseAtoms.push(atoms.map((a) => this.atomId(a)));
      this.scanner = undefined;
      this.lastCache = undefined;
    }
    return id;
  }

  private atomId(text: string): number {
    let id = this.atomIds.get(text);
    if (id === undefined) {
      id = this.atoms.length;
      this.atomIds.set(text, id);
      this.atoms.push(text);
    }
    return id;
  }
}
