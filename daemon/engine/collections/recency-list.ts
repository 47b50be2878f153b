// Entries by key in order of last use, each step O(1): a Map for the lookup and a doubly linked
// list for the order (newest at one end, oldest at the other). Not the Map's own insertion order:
// V8 keeps deleted entries in a Map's table until it is rebuilt, so reading the first key after
// many deletions at the front walks past all of them (30 us per eviction at 100,000 entries,
// Node 20, 2026-11-26).

export interface RecencyNode<T> {
  readonly key: string;
  value: T;
  /** Towards the oldest end. */
  older: RecencyNode<T> | undefined;
  /** Towards the newest end. */
  newer: RecencyNode<T> | undefined;
}

export class RecencyList<T> {
  private readonly nodes = new Map<string, RecencyNode<T>>();
  private newest: RecencyNode<T> | undefined;
  /** The least recently used entry. */
  oldest: RecencyNode<T> | undefined;

  get size(): number {
    return this.nodes.size;
  }

  get(key: string): RecencyNode<T> | undefined {
    return this.nodes.get(key);
  }

  /** Adds `key` as the newest entry (the caller knows it is absent). */
  add(key: string, value: T): RecencyNode<T> {
    const node: RecencyNode<T> = { key, value, older: this.newest, newer: undefined };
    if (this.newest === undefined) this.oldest = node;
    else this.newest.newer = node;
    this.newest = node;
    this.nodes.set(key, node);
    return node;
  }

  /** Marks `node` as the most recently used. */
  touch(node: RecencyNode<T>): void {
    if (node === this.newest) return;
    this.unlink(node);
    node.older = this.newest;
    node.newer = undefined;
    this.newest!.newer = node;
    this.newest = node;
  }

  delete(node: RecencyNode<T>): void {
    this.unlink(node);
    this.nodes.delete(node.key);
  }

  private unlink(node: RecencyNode<T>): void {
    if (node.older === undefined) this.oldest = node.newer;
    else node.older.newer = node.newer;
    if (node.newer === undefined) this.newest = node.older;
    else node.newer.older = node.older;
  }
}
