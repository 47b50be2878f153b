// See ../CONTRACT.md: byte string in, byte string out.
export type Transformation = (input: string) => string;

/**
 * A transformation's registry entry: the function and its trigger bytes, declared with it so the
 * transformation chain never keeps a list of names (test/daemon/engine/registry-entries.test.ts
 * fails on an entry that leaves one out).
 */
export interface TransformationDefinition {
  readonly apply: Transformation;
  /** Bytes without which `apply` returns its input unchanged: a value holding none of them skips
   *  the call (rules/transform-chain.ts). Null: it always runs (hashes, encoders, length...).
   *  Soundness is property-tested (test/daemon/engine/transformations/trigger-bytes.test.ts). */
  readonly triggerBytes: string | null;
}
