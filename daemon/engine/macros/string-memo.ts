// A bounded memo of a string function, for per-match work whose inputs repeat: a setvar such
// as CRS 921170's `tx.paramcounter_%{MATCHED_VAR_NAME}=+1` runs once per argument (387 times
// for an 8 KB JSON body with 8 distinct names). Answering from the memo returns the same string
// object each time, whose hash V8 keeps, so the TX lookups that follow cost no re-hashing
// either. Inputs are request data: the memo is bounded in entries and in key length.
const MAX_ENTRIES = 256;
const MAX_INPUT_LENGTH = 256;

export class StringMemo {
  private readonly results = new Map<string, string>();

  constructor(private readonly compute: (input: string) => string) {}

  get(input: string): string {
    if (input.length > MAX_INPUT_LENGTH) return this.compute(input);
    let result = this.results.get(input);
    if (result === undefined) {
      if (this.results.size >= MAX_ENTRIES) this.results.clear();
      result = this.compute(input);
      this.results.set(input, result);
    }
    return result;
  }
}
