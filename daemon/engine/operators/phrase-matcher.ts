// Case-insensitive multi-phrase search (Aho-Corasick), the engine behind @pm and @pmFromFile.
// Built once at rule load; a search is one pass over the input. Reports what ModSecurity's acmp
// reports: the phrase that ends earliest in the input (the longest one ending there), as written
// in the rule or data file.
//
// Layout: one Map from (state * 256 + byte) to the next state, and per-state child lists as linked
// edges, so a 30 KB phrase file makes a few flat arrays rather than one Map per trie node.

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

  constructor(phrases: Iterable<string>) {
    for (const phrase of phrases) this.add(phrase);
    this.link();
  }

  get size(): number {
    return this.phrases.length;
  }

  /** The matched phrase, or null. */
  find(input: string): string | null {
    const { next, fail, dict, phraseAt } = this;
    let state = 0;
    for (let i = 0; i < input.length; i++) {
      let c = input.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      let to = next.get(state * 256 + c);
      while (to === undefined && state !== 0) {
        state = fail[state];
        to = next.get(state * 256 + c);
      }
      state = to ?? 0;
      if (phraseAt[state] >= 0) return this.phrases[phraseAt[state]];
      if (dict[state] > 0) return this.phrases[phraseAt[dict[state]]];
    }
    return null;
  }

  private add(phrase: string): void {
    if (phrase.length === 0) return;
    let state = 0;
    for (let i = 0; i < phrase.length; i++) {
      let c = phrase.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
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
}
