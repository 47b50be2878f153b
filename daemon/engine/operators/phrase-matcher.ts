// Case-insensitive multi-phrase search (Aho-Corasick), the engine behind @pm and @pmFromFile.
// Built once at rule load; a search is one pass over the input. Reports what ModSecurity's acmp
// reports: the phrase that ends earliest in the input (the longest one ending there), as written
// in the rule or data file.

export class PhraseMatcher {
  private readonly children: Array<Map<number, number>> = [new Map()];
  private readonly phraseAt: number[] = [-1];
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
    const { children, fail, dict, phraseAt } = this;
    let state = 0;
    for (let i = 0; i < input.length; i++) {
      let c = input.charCodeAt(i);
      if (c >= 0x41 && c <= 0x5a) c |= 0x20;
      let next = children[state].get(c);
      while (next === undefined && state !== 0) {
        state = fail[state];
        next = children[state].get(c);
      }
      state = next ?? 0;
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
      let next = this.children[state].get(c);
      if (next === undefined) {
        next = this.children.length;
        this.children.push(new Map());
        this.phraseAt.push(-1);
        this.children[state].set(c, next);
      }
      state = next;
    }
    if (this.phraseAt[state] < 0) {
      this.phraseAt[state] = this.phrases.length;
      this.phrases.push(phrase);
    }
  }

  /** Breadth-first: failure links, and dictionary links to the nearest suffix that is a phrase. */
  private link(): void {
    const count = this.children.length;
    this.fail = new Int32Array(count);
    this.dict = new Int32Array(count);
    const queue: number[] = [];
    for (const child of this.children[0].values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      for (const [c, child] of this.children[state]) {
        let f = this.fail[state];
        while (f !== 0 && !this.children[f].has(c)) f = this.fail[f];
        const target = this.children[f].get(c);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const fc = this.fail[child];
        this.dict[child] = this.phraseAt[fc] >= 0 ? fc : this.dict[fc];
        queue.push(child);
      }
    }
  }
}
