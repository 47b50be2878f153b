// What @pm and @pmFromFile do with a match: TX.0 = the phrase, TX.1..9 cleared (with `capture`).
import type { OperatorEvaluate } from './types.js';
import type { PhraseMatcher } from './phrase-matcher.js';

export function phraseOperator(matcher: PhraseMatcher): OperatorEvaluate {
  return (input, runtime) => {
    if (input.length === 0) return false;
    const phrase = matcher.find(input);
    if (phrase === null) return false;
    if (runtime.capturing) {
      runtime.setCapture(0, phrase);
      for (let i = 1; i <= 9; i++) runtime.unsetCapture?.(i);
    }
    return true;
  };
}
