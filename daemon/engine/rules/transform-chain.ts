// Transformation chains compiled into a shared trie: `t:urlDecodeUni,t:lowercase` and
// `t:urlDecodeUni,t:htmlEntityDecode` share their first step. Each step has a small integer id
// so a transaction can cache "value after step N" per value, and a later rule with a longer
// chain reuses the shorter chain's result instead of decoding again.
import type { Transformation } from '../transformations/types.js';

export interface TransformStep {
  readonly id: number;
  readonly name: string;
  readonly fn: Transformation;
  readonly parent: TransformStep | undefined;
  /** Steps from the first to this one, for multiMatch. */
  readonly path: readonly TransformStep[];
}

export class TransformTrie {
  private readonly steps: TransformStep[] = [];
  private readonly children = new Map<string, TransformStep>();

  get size(): number {
    return this.steps.length;
  }

  /** The step reached by applying `name` after `parent`. */
  step(parent: TransformStep | undefined, name: string, fn: Transformation): TransformStep {
    const key = `${parent?.id ?? -1}\u0000${name}`;
    const found = this.children.get(key);
    if (found) return found;
    const path: TransformStep[] = parent ? [...parent.path] : [];
    const created: TransformStep = { id: this.steps.length, name, fn, parent, path };
    path.push(created);
    this.steps.push(created);
    this.children.set(key, created);
    return created;
  }
}
