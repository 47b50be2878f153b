// Transformation chains compiled into a shared trie: `t:urlDecodeUni,t:lowercase` and
// `t:urlDecodeUni,t:htmlEntityDecode` share their first step. Each step has a small integer id
// so a transaction can cache "value after step N" on the value's entry, and a later rule with a
// longer chain reuses the shorter chain's result instead of decoding again.
//
// Most steps have nothing to do for most values (a decoder on a value without escapes). Two
// things make that cheap without a per-input cache: each transformation whose registry entry
// has trigger bytes (transformations/types.ts) gets a bit, and a value's byte classes (one pass over
// its bytes, once per value) say which of them could change it; and when a chain's prefix left
// the value as it was, the step's result is the same transformation applied alone (`alone`),
// cached once per value however many chains end in it.
import type { Transformation, TransformationDefinition } from '../transformations/types.js';
import type { VarEntry } from '../collections/keyed-list.js';

export interface TransformStep {
  readonly id: number;
  readonly name: string;
  readonly fn: Transformation;
  readonly parent: TransformStep | undefined;
  /** Steps from the first to this one, for multiMatch. */
  readonly path: readonly TransformStep[];
  /** This transformation's bit in a value's byte classes; 0 = it always runs. */
  readonly triggerBit: number;
  /** The one-step chain of the same transformation (this step itself when it is first). */
  readonly alone: TransformStep;
}

/** Bits available for trigger sets; transformations beyond them simply always run. */
const MAX_BITS = 31;

export class TransformTrie {
  private readonly steps: TransformStep[] = [];
  private readonly children = new Map<string, TransformStep>();
  private readonly bitsByTriggers = new Map<string, number>();
  /** Per byte: the trigger bits of every transformation that byte could make do something. */
  readonly byteClasses = new Int32Array(256);

  get size(): number {
    return this.steps.length;
  }

  /** The step reached by applying `name` after `parent`. */
  step(parent: TransformStep | undefined, name: string, definition: TransformationDefinition): TransformStep {
    const key = `${parent?.id ?? -1}\u0000${name}`;
    const found = this.children.get(key);
    if (found) return found;
    const alone = parent === undefined ? undefined : this.step(undefined, name, definition);
    const path: TransformStep[] = parent ? [...parent.path] : [];
    const created = {
      id: this.steps.length,
      name,
      fn: definition.apply,
      parent,
      path,
      triggerBit: alone?.triggerBit ?? this.triggerBit(definition.triggerBytes),
      alone: alone as TransformStep,
    };
    created.alone ??= created;
    path.push(created);
    this.steps.push(created);
    this.children.set(key, created);
    return created;
  }

  private triggerBit(bytes: string | null): number {
    if (bytes === null) return 0;
    let bit = this.bitsByTriggers.get(bytes);
    if (bit === undefined) {
      if (this.bitsByTriggers.size >= MAX_BITS) return 0;
      bit = 1 << this.bitsByTriggers.size;
      this.bitsByTriggers.set(bytes, bit);
      for (let i = 0; i < bytes.length; i++) this.byteClasses[bytes.charCodeAt(i)] |= bit;
    }
    return bit;
  }
}

/** `cell.value` after `step` (and its parents), cached on the cell by step id. `cell` is a list
 *  entry's leader: entries with equal values share it (collections/keyed-list.ts). */
export function transformedValue(cell: VarEntry, step: TransformStep, byteClasses: Int32Array, steps: number): string {
  let results = cell.transformed;
  // Most values ever need one step (a proxy GET: 15 of 16 transformed values, each step id 0):
  // the first array holds ids up to the one asked for; a later higher id gets one for all steps
  // (63 with CRS: ~0.5 KB a value, 8 KB of garbage per GET when every value had one).
  if (results === undefined) {
    results = new Array(step.id + 1);
    cell.transformed = results;
  } else if (step.id >= results.length) {
    const all: Array<string | undefined> = new Array(steps);
    for (let i = 0; i < results.length; i++) all[i] = results[i];
    results = all;
    cell.transformed = results;
  }
  let result = results[step.id];
  if (result !== undefined) return result;
  const parent = step.parent;
  const input = parent === undefined ? cell.value : transformedValue(cell, parent, byteClasses, steps);
  if (input !== cell.value) result = step.fn(input);
  // The chain so far left the value as it was: the step alone gives the answer, once per value.
  else if (parent !== undefined) result = transformedValue(cell, step.alone, byteClasses, steps);
  else if (step.triggerBit !== 0 && (classesOf(cell, byteClasses) & step.triggerBit) === 0) result = input;
  else result = step.fn(input);
  // The array on the cell now (the steps above have lower ids: they never grew it; read it anyway).
  cell.transformed![step.id] = result;
  return result;
}

/** The trigger bits of `cell.value` (computed once per value). */
export function classesOf(cell: VarEntry, table: Int32Array): number {
  if (cell.byteClasses === -1) cell.byteClasses = byteClassesOf(cell.value, table);
  return cell.byteClasses;
}

/** Every trigger bit: what a char outside the byte range is taken to need. */
const ALL_BITS = 0x7fffffff;

/** The trigger bits of every byte in `value` (never -1: bits 0-30 only). */
export function byteClassesOf(value: string, table: Int32Array): number {
  let classes = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    classes |= c < 256 ? table[c] : ALL_BITS;
  }
  return classes;
}
