// Transformation chains compiled into a shared trie: `t:urlDecodeUni,t:lowercase` and
// `t:urlDecodeUni,t:htmlEntityDecode` share their first step. Each step has a small integer id
// so a transaction can cache "value after step N" per value, and a later rule with a longer
// chain reuses the shorter chain's result instead of decoding again. Below that, results are
// also cached per (transformation, input): most transformations leave most values unchanged,
// so `t:urlDecodeUni,t:lowercase` on a value without escapes reuses `t:lowercase`'s result.
import type { Transformation } from '../transformations/types.js';

export interface TransformStep {
  readonly id: number;
  /** Same for every step applying the same transformation: results are shared by input. */
  readonly fnId: number;
  readonly name: string;
  readonly fn: Transformation;
  readonly parent: TransformStep | undefined;
  /** Steps from the first to this one, for multiMatch. */
  readonly path: readonly TransformStep[];
}

export class TransformTrie {
  private readonly steps: TransformStep[] = [];
  private readonly children = new Map<string, TransformStep>();
  private readonly fnIds = new Map<string, number>();

  get size(): number {
    return this.steps.length;
  }

  /** Number of distinct transformations in use. */
  get functionCount(): number {
    return this.fnIds.size;
  }

  /** The step reached by applying `name` after `parent`. */
  step(parent: TransformStep | undefined, name: string, fn: Transformation): TransformStep {
    const key = `${parent?.id ?? -1}\u0000${name}`;
    const found = this.children.get(key);
    if (found) return found;
    const path: TransformStep[] = parent ? [...parent.path] : [];
    let fnId = this.fnIds.get(name);
    if (fnId === undefined) {
      fnId = this.fnIds.size;
      this.fnIds.set(name, fnId);
    }
    const created: TransformStep = { id: this.steps.length, fnId, name, fn, parent, path };
    path.push(created);
    this.steps.push(created);
    this.children.set(key, created);
    return created;
  }
}
