// The Aho-Corasick automaton behind @pm and @pmFromFile (phrase-matcher.ts) and behind one scan
// shared by several phrase lists (phrase-union.ts). ASCII case-insensitive, over bytes: a
// character above 0xff is a byte no phrase contains.
//
// Build: a trie over every list's phrases (one Map from state * 256 + byte to the next state),
// failure links, then a full DFA over byte classes (bytes that occur in no phrase share class 0).
// For each state and list, the list's phrase to report on entering it: the longest phrase of that
// list that is a suffix of the text read (the state's own, else its failure target's); that is
// what ModSecurity's acmp reports for the earliest end.
//
// Search is one table read per byte: the DFA is stored with rows premultiplied by the class count
// (the next row's offset, not its number), and the states that report something are numbered
// last, so "anything to report here?" is one comparison against `firstReportingRow` instead of a
// second table read per byte.

export interface PhraseAutomaton {
  /** Byte -> class. */
  readonly byteClass: Uint8Array;
  /** Row offset -> next row offset, per class: next[row + class]. Row 0 is the root. */
  readonly next: Int32Array;
  /** Rows at or past this offset report a phrase of at least one list. */
  readonly firstReportingRow: number;
  readonly classCount: number;
  readonly listCount: number;
  /** For reporting row r and list l: reports[((r - firstReportingRow) / classCount) * listCount + l],
   *  an index into `phrases`, or -1 when that list has nothing ending here. */
  readonly reports: Int32Array;
  /** Every phrase as written (the first spelling when a list repeats one, ignoring case). */
  readonly phrases: readonly string[];
  /** Phrases per list, empty ones dropped and repeats kept once. */
  readonly listSizes: readonly number[];
}

export function buildPhraseAutomaton(lists: ReadonlyArray<Iterable<string>>): PhraseAutomaton {
  const trie = new Trie();
  const listCount = lists.length;
  const terminals: Array<[state: number, list: number, phrase: number]> = [];
  const phrases: string[] = [];
  const listSizes: number[] = [];
  for (let list = 0; list < listCount; list++) {
    const seen = new Set<number>();
    for (const phrase of lists[list]) {
      if (phrase.length === 0) continue;
      const state = trie.add(phrase);
      if (seen.has(state)) continue;
      seen.add(state);
      terminals.push([state, list, phrases.length]);
      phrases.push(phrase);
    }
    listSizes.push(seen.size);
  }
  const states = trie.stateCount;
  const own = new Int32Array(states * listCount).fill(-1);
  for (const [state, list, phrase] of terminals) own[state * listCount + list] = phrase;

  const { order, fail } = trie.breadthFirst();
  // A state reports, per list, its own phrase or else what its failure target reports.
  const report = new Int32Array(states * listCount).fill(-1);
  const reporting = new Uint8Array(states);
  for (const state of order) {
    for (let list = 0; list < listCount; list++) {
      const o = own[state * listCount + list];
      const r = o >= 0 ? o : state === 0 ? -1 : report[fail[state] * listCount + list];
      report[state * listCount + list] = r;
      if (r >= 0) reporting[state] = 1;
    }
  }

  // Number the states that report nothing first (the root stays 0), the reporting ones after.
  const renumbered = new Int32Array(states);
  let quiet = 0;
  for (const state of order) if (reporting[state] === 0) renumbered[state] = quiet++;
  let loud = quiet;
  for (const state of order) if (reporting[state] === 1) renumbered[state] = loud++;

  const k = trie.classCount;
  const goto = trie.dfa(order, fail);
  const next = new Int32Array(states * k);
  for (let state = 0; state < states; state++) {
    const row = renumbered[state] * k;
    for (let a = 0; a < k; a++) next[row + a] = renumbered[goto[state * k + a]] * k;
  }
  const reports = new Int32Array((states - quiet) * listCount);
  for (let state = 0; state < states; state++) {
    if (reporting[state] === 0) continue;
    const at = (renumbered[state] - quiet) * listCount;
    for (let list = 0; list < listCount; list++) reports[at + list] = report[state * listCount + list];
  }
  return { byteClass: trie.byteClass, next, firstReportingRow: quiet * k, classCount: k, listCount, reports, phrases, listSizes };
}

/** The trie with its byte classes; lower-cases ASCII letters as it goes. */
class Trie {
  private readonly edges = new Map<number, number>();
  private readonly firstEdge: number[] = [-1];
  private readonly edgeByte: number[] = [];
  private readonly edgeTo: number[] = [];
  private readonly edgeNext: number[] = [];
  /** Byte -> class; class 0 is every byte no phrase contains. */
  readonly byteClass = new Uint8Array(256);
  classCount = 1;

  get stateCount(): number {
    return this.firstEdge.length;
  }

  /** Adds a phrase; returns the state it ends in. */
  add(phrase: string): number {
    let state = 0;
    for (let i = 0; i < phrase.length; i++) {
      let c = phrase.charCodeAt(i) & 0xff;
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      this.assignClass(c);
      let to = this.edges.get(state * 256 + c);
      if (to === undefined) {
        to = this.firstEdge.length;
        this.firstEdge.push(-1);
        this.edges.set(state * 256 + c, to);
        this.edgeByte.push(c);
        this.edgeTo.push(to);
        this.edgeNext.push(this.firstEdge[state]);
        this.firstEdge[state] = this.edgeTo.length - 1;
      }
      state = to;
    }
    return state;
  }

  /** The states in breadth-first order, with their failure links. */
  breadthFirst(): { order: number[]; fail: Int32Array } {
    const fail = new Int32Array(this.stateCount);
    const order = [0];
    for (let head = 0; head < order.length; head++) {
      const state = order[head];
      for (let e = this.firstEdge[state]; e >= 0; e = this.edgeNext[e]) {
        const child = this.edgeTo[e];
        if (state !== 0) {
          const c = this.edgeByte[e];
          let f = fail[state];
          let target = this.edges.get(f * 256 + c);
          while (target === undefined && f !== 0) {
            f = fail[f];
            target = this.edges.get(f * 256 + c);
          }
          fail[child] = target !== undefined && target !== child ? target : 0;
        }
        order.push(child);
      }
    }
    return { order, fail };
  }

  /** goto[s][a]: the trie's edge if it has one, else goto[fail(s)][a] (root: stay at root). */
  dfa(order: readonly number[], fail: Int32Array): Int32Array {
    const k = this.classCount;
    const goto = new Int32Array(this.stateCount * k);
    const byteOfClass = new Int32Array(k).fill(-1);
    for (let b = 0; b < 256; b++) if (byteOfClass[this.byteClass[b]] < 0) byteOfClass[this.byteClass[b]] = b;
    // Breadth-first, so a state's failure target is complete before the state itself.
    for (const state of order) {
      for (let a = 1; a < k; a++) {
        const b = byteOfClass[a];
        const to = this.edges.get(state * 256 + (b >= 0x41 && b <= 0x5a ? b | 0x20 : b));
        goto[state * k + a] = to ?? (state === 0 ? 0 : goto[fail[state] * k + a]);
      }
    }
    return goto;
  }

  /** Gives a byte (and its upper-case twin, since matching ignores ASCII case) its own class. */
  private assignClass(c: number): void {
    if (this.byteClass[c] !== 0) return;
    const cls = this.classCount++;
    if (cls > 255) throw new Error('phrase list uses too many distinct bytes');
    this.byteClass[c] = cls;
    if (c >= 0x61 && c <= 0x7a) this.byteClass[c - 0x20] = cls;
  }
}
