// A bounded memo of a function of a string, for per-match work whose inputs repeat: a setvar such
// as CRS 921170's `tx.paramcounter_%{MATCHED_VAR_NAME}=+1` runs once per argument (387 times
// for an 8 KB JSON body with 8 distinct names). Answering from the memo returns the same string
// object each time, whose hash V8 keeps, so the TX lookups that follow cost no re-hashing
// either. Also the answers of pure tests whose inputs come back request after request (a
// `/regex/` key selector, @ipMatch on REMOTE_ADDR). Inputs are request data: the memo is bounded
// in entries (it starts over when full) and in input length (longer inputs are computed).
export interface StringMemoLimits {
  entries: number;
  inputLength: number;
}

const DEFAULT_LIMITS: StringMemoLimits = { entries: 256, inputLength: 256 };

export class StringMemo<T = string> {
  private readonly results = new Map<string, T>();

  constructor(private readonly compute: (input: string) => T, private readonly limits: StringMemoLimits = DEFAULT_LIMITS) {}

  get(input: string): T {
    if (input.length > this.limits.inputLength) return this.compute(input);
    let result = this.results.get(input);
    if (result === undefined) {
      if (this.results.size >= this.limits.entries) this.results.clear();
      result = this.compute(input);
      this.results.set(input, result);
    }
    return result;
  }

  /** Forgets every answer (what `compute` answers has changed). */
  clear(): void {
    this.results.clear();
  }
}
