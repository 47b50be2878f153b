// A per-transaction memo for an operator that is a pure function of its input and dear per call
// (@detectSQLi: ~0.4-0.6 us). Request bodies repeat values (a JSON array of similar objects), and a
// multiMatch rule may meet the same string again, so within one transaction a repeated value costs
// a Map lookup instead of a second analysis.
//
// Scope: the OperatorRuntime object a transaction hands to operators (one per transaction). Only
// the latest scope's memo is kept: a call from another transaction starts a new one (no WeakMap:
// its entries for short-lived keys cost every garbage collection). Correctness never depends on
// the scope: results are a pure function of the input, and the memo is bounded.

/** Entries a memo may hold before it starts over. */
const ENTRY_LIMIT = 4096;

export function memoPerTransaction<T>(compute: (input: string) => T): (input: string, scope: object) => T {
  let scopeOfMemo: object | undefined;
  let memo = new Map<string, T>();
  return (input, scope) => {
    if (scope !== scopeOfMemo) {
      scopeOfMemo = scope;
      if (memo.size > 0) memo = new Map();
    }
    let result = memo.get(input);
    if (result === undefined) {
      result = compute(input);
      if (memo.size >= ENTRY_LIMIT) memo.clear();
      memo.set(input, result);
    }
    return result;
  };
}
