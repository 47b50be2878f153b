// Case-insensitive multi-phrase search (Aho-Corasick), the engine behind @pm and @pmFromFile.
// Built once at rule load; a search is one pass over the input. Reports what ModSecurity's acmp
// reports: the phrase that ends earliest in the input (the longest one ending there), as written
// in the rule or data file.
//
// Build: a trie (one Map from state * 256 + byte to the next state, child lists as linked edges),
// then failure links. Search: a full DFA over byte classes (bytes that occur in no phrase share one
// class), so each input byte costs one table read; the table holds states x classes entries.

export class PhraseMatcher {
  private readonly next = new Map<number, number>();
  private readonly phraseAt: number[] = [-1];
  private readonly firstEdge: number[] = [-1];
  private readonly edgeByte: number[] = [];
  private readonly edgeTo: number[] = [];
  private readonly edgeNext: number[] = [];
  private fail: Int32Array = new Int32Array(1);
  private dict: Int32Array = new Int32Array(1);
  private readonly phrases: string[] = [];
  /** Byte -> class; class 0 is every byte no phrase contains. */
  private readonly byteClass = new Uint8Array(256);
  private classCount = 1;
  private delta: Uint16Array | Int32Array = new Uint16Array(1);
  /** Phrase index reported on entering a state, or -1. */
  private output: Int32Array = new Int32Array(1);

  constructor(phrases: Iterable<string>) {
    for (const phrase of phrases) this.add(phrase);
    this.link();
    this.buildDfa();
  }

  get size(): number {
    return this.phrases.length;
  }

  /** The matched phrase, or null. */
  find(input: string): string | null {
    const { delta, output, byteClass, classCount } = this;
    let state = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      state = delta[state * classCount + byteClass[c > 0xff ? 0 : c]];
      const out = output[state];
      if (out >= 0) return this.phrases[out];
    }
    return null;
  }

  private add(phrase: string): void {
    if (phrase.length === 0) return;
    let state = 0;
    for (let i = 0; i < phrase.length; i++) {
      let c = phrase.charCodeAt(i) & 0xff;
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      this.assignClass(c);
      let to = this.next.get(state * 256 + c);
      if (to === undefined) {
        to = this.phraseAt.length;
        this.phraseAt.push(-1);
        this.firstEdge.push(-1);
        this.next.set(state * 256 + c, to);
        this.edgeByte.push(c);
        this.edgeTo.push(to);
        this.edgeNext.push(this.firstEdge[state]);
        this.firstEdge[state] = this.edgeTo.length - 1;
      }
      state = to;
    }
    if (this.phraseAt[state] < 0) {
      this.phraseAt[state] = this.phrases.length;
      this.phrases.push(phrase);
    }
  }

  /** Breadth-first: failure links, and dictionary links to the nearest suffix that is a phrase. */
  private link(): void {
    const count = this.phraseAt.length;
    this.fail = new Int32Array(count);
    this.dict = new Int32Array(count);
    const queue: number[] = [];
    for (let e = this.firstEdge[0]; e >= 0; e = this.edgeNext[e]) queue.push(this.edgeTo[e]);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (let e = this.firstEdge[state]; e >= 0; e = this.edgeNext[e]) {
        const c = this.edgeByte[e];
        const child = this.edgeTo[e];
        let f = this.fail[state];
        let target = this.next.get(f * 256 + c);
        while (target === undefined && f !== 0) {
          f = this.fail[f];
          target = this.next.get(f * 256 + c);
        }
        const fc = target !== undefined && target !== child ? target : 0;
        this.fail[child] = fc;
        this.dict[child] = this.phraseAt[fc] >= 0 ? fc : this.dict[fc];
        queue.push(child);
      }
    }
  }

  /** Gives a byte (and its upper-case twin, since matching ignores ASCII case) its own class. */
  private assignClass(c: number): void {
    if (this.byteClass[c] !== 0) return;
    const cls = this.classCount++;
    if (cls > 255) throw new Error('phrase list uses too many distinct bytes');
    this.byteClass[c] = cls;
    if (c >= 0x61 && c <= 0x7a) this.byteClass[c - 0x20] = cls;
  }

  /** delta[s][a] = goto(s, a) if the trie has it, else delta[fail(s)][a] (root: stay at root). */
  private buildDfa(): void {
    const count = this.phraseAt.length;
    const k = this.classCount;
    const delta = count < 0x10000 ? new Uint16Array(count * k) : new Int32Array(count * k);
    const output = new Int32Array(count);
    const classOf = new Int32Array(256).fill(-1);
    for (let b = 0; b < 256; b++) if (classOf[this.byteClass[b]] < 0) classOf[this.byteClass[b]] = b;
    // Breadth-first, so a state's failure target is complete before the state itself.
    const queue = [0];
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      const f = this.fail[state];
      for (let a = 1; a < k; a++) {
        const to = this.next.get(state * 256 + (classOf[a] >= 0x41 && classOf[a] <= 0x5a ? classOf[a] | 0x20 : classOf[a]));
        delta[state * k + a] = to ?? (state === 0 ? 0 : delta[f * k + a]);
      }
      delta[state * k] = 0;
      output[state] = this.phraseAt[state] >= 0 ? this.phraseAt[state] : this.dict[state] > 0 ? this.phraseAt[this.dict[state]] : -1;
      for (let e = this.firstEdge[state]; e >= 0; e = this.edgeNext[e]) queue.push(this.edgeTo[e]);
    }
    this.delta = delta;
    this.output = output;
  }
}
