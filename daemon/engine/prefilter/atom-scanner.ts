// One pass over a value that reports every clause (an OR of literal atoms, see clauses.ts) that
// holds in it: Aho-Corasick over the union of all atoms, ignoring ASCII case. Built once from the
// atoms; a scan costs one table read per input byte plus the clause bits of each atom found.
//
// The automaton is a full DFA over byte classes (bytes that occur in no atom share class 0, an
// upper-case ASCII letter shares its lower-case twin's class); every state carries the clauses of
// every atom that ends there, directly or as a suffix, so no suffix links are walked while scanning.

export class AtomScanner {
  /** Words of a clause bitset. */
  readonly words: number;
  private readonly byteClass = new Uint8Array(256);
  private readonly classCount: number;
  private readonly delta: Uint16Array | Int32Array;
  /** Clauses a state reports: stateClauses[clauseStart[s] .. clauseStart[s + 1]). */
  private readonly clauseStart: Int32Array;
  private readonly stateClauses: Int32Array;

  /** `atomClauses[a]`: the clause ids atom `a` satisfies; `atoms[a]` is ASCII-lower-case. */
  constructor(atoms: readonly string[], atomClauses: readonly (readonly number[])[], clauseCount: number) {
    this.words = Math.max(1, Math.ceil(clauseCount / 32));
    const trie = new Trie(atoms, this.byteClass);
    this.classCount = trie.classCount;
    const { delta, order, fail } = trie.toDfa();
    this.delta = delta;
    // A state reports its own atom's clauses plus those of its failure state (processed earlier:
    // breadth-first order), i.e. of every atom that is a suffix of the state's path.
    const perState: Array<readonly number[]> = new Array(trie.size);
    perState[0] = [];
    for (const s of order) {
      if (s === 0) continue;
      const own = trie.atomAt[s] >= 0 ? atomClauses[trie.atomAt[s]] : [];
      const inherited = perState[fail[s]];
      perState[s] = own.length === 0 ? inherited : inherited.length === 0 ? own : [...new Set([...own, ...inherited])];
    }
    this.clauseStart = new Int32Array(trie.size + 1);
    let total = 0;
    for (let s = 0; s < trie.size; s++) {
      this.clauseStart[s] = total;
      total += perState[s].length;
    }
    this.clauseStart[trie.size] = total;
    this.stateClauses = new Int32Array(total);
    for (let s = 0; s < trie.size; s++) this.stateClauses.set(perState[s], this.clauseStart[s]);
  }

  /** Sets in `bits[at .. at + words)` (zeroed) the clauses that hold in `input`; false when
   *  `input` is not a byte string (a char above 0xff), and then nothing can be ruled out. */
  scanInto(input: string, bits: Int32Array, at: number): boolean {
    const { delta, byteClass, classCount, clauseStart, stateClauses } = this;
    let state = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      if (c > 0xff) return false;
      state = delta[state * classCount + byteClass[c]];
      const end = clauseStart[state + 1];
      for (let j = clauseStart[state]; j < end; j++) {
        const clause = stateClauses[j];
        bits[at + (clause >>> 5)] |= 1 << (clause & 31);
      }
    }
    return true;
  }
}

/** The atoms' trie (ASCII case folded), its failure links, and the DFA made from them. */
class Trie {
  private readonly next = new Map<number, number>();
  /** Atom index ending at a state, or -1. */
  readonly atomAt: number[] = [-1];
  classCount = 1;

  constructor(atoms: readonly string[], private readonly byteClass: Uint8Array) {
    atoms.forEach((text, index) => this.add(text, index));
  }

  get size(): number {
    return this.atomAt.length;
  }

  private add(text: string, index: number): void {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = fold(text.charCodeAt(i) & 0xff);
      if (this.byteClass[c] === 0) {
        this.byteClass[c] = this.classCount;
        if (c >= 0x61 && c <= 0x7a) this.byteClass[c - 0x20] = this.classCount;
        this.classCount++;
      }
      let to = this.next.get(state * 256 + c);
      if (to === undefined) {
        to = this.atomAt.length;
        this.atomAt.push(-1);
        this.next.set(state * 256 + c, to);
      }
      state = to;
    }
    if (text.length > 0) this.atomAt[state] = index;
  }

  /** delta[s][a] = goto(s, a) when the trie has it, else delta[fail(s)][a]; root stays at root. */
  toDfa(): { delta: Uint16Array | Int32Array; order: number[]; fail: Int32Array } {
    const count = this.size;
    const k = this.classCount;
    if (k > 256) throw new Error('too many distinct bytes in the literal atoms');
    const delta = count < 0x10000 ? new Uint16Array(count * k) : new Int32Array(count * k);
    const fail = new Int32Array(count);
    const representative = new Int32Array(k).fill(-1);
    for (let b = 0; b < 256; b++) {
      const cls = this.byteClass[b];
      if (cls !== 0) representative[cls] = fold(b);
    }
    const order = [0];
    for (let head = 0; head < order.length; head++) {
      const state = order[head];
      for (let a = 1; a < k; a++) {
        const to = this.next.get(state * 256 + representative[a]);
        if (to !== undefined) {
          fail[to] = state === 0 ? 0 : delta[fail[state] * k + a];
          order.push(to);
        }
        delta[state * k + a] = to ?? (state === 0 ? 0 : delta[fail[state] * k + a]);
      }
    }
    return { delta, order, fail };
  }
}

function fold(c: number): number {
  return c >= 0x41 && c <= 0x5a ? c | 0x20 : c;
}
