// @pm: case-insensitive match of any of the space-separated phrases (|hex| and \ escapes as
// ModSecurity parses them). With `capture`, TX.0 is the phrase that matched.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { parsePmContent } from './pm-content.js';
import { PhraseMatcher } from './phrase-matcher.js';
import { phraseOperator } from './phrase-operator.js';

export const pm: OperatorFactory = (param) => {
  if (param.trim().length === 0) throw new Error("missing parameter for operator 'pm'");
  let text = parsePmContent(param) ?? param;
  const nul = text.indexOf('\0');
  if (nul >= 0) text = text.slice(0, nul); // ModSecurity copies the phrases as a C string
  const phrases = text.split(/[ \t\n\v\f\r]+/).filter((p) => p.length > 0);
  return phraseOperator(new PhraseMatcher(phrases));
};

export const pmOperator: OperatorDefinition = { create: pm, pure: true, effectsOnMatch: false, requiredBytes: null };
