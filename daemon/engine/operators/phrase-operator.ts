// What @pm and @pmFromFile do with a match: TX.0 = the phrase, TX.1..9 cleared (with `capture`).
import type { OperatorEvaluate, OperatorRuntime } from './types.js';
import type { PhraseMatcher } from './phrase-matcher.js';
import type { PhraseUnion } from './phrase-union.js';

/** A phrase operator keeps its matcher in sight, so that rules reading the same values can share
 *  one scan (rules/shared-phrase-scans.ts). */
export type PhraseEvaluate = OperatorEvaluate & { readonly phraseMatcher: PhraseMatcher };

export function phraseOperator(matcher: PhraseMatcher): PhraseEvaluate {
  const evaluate: OperatorEvaluate = (input, runtime) => input.length > 0 && reportMatch(matcher.find(input), runtime);
  return Object.assign(evaluate, { phraseMatcher: matcher });
}

/** The same operator answering from a scan shared with other lists (member `member` of `union`). */
export function sharedPhraseOperator(union: PhraseUnion, member: number, matcher: PhraseMatcher): PhraseEvaluate {
  const evaluate: OperatorEvaluate = (input, runtime) => input.length > 0 && reportMatch(union.find(input, member), runtime);
  return Object.assign(evaluate, { phraseMatcher: matcher });
}

export function isPhraseEvaluate(evaluate: OperatorEvaluate | undefined): evaluate is PhraseEvaluate {
  return evaluate !== undefined && (evaluate as Partial<PhraseEvaluate>).phraseMatcher !== undefined;
}

function reportMatch(phrase: string | null, runtime: OperatorRuntime): boolean {
  if (phrase === null) return false;
  if (runtime.capturing) {
    runtime.setCapture(0, phrase);
    for (let i = 1; i <= 9; i++) runtime.unsetCapture?.(i);
  }
  return true;
}
