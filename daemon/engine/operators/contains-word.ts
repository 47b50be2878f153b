// @containsWord: the parameter occurs with a non-word byte (or the input's edge) on each side.
// "Word" is ModSecurity's: ASCII alphanumerics and '_'. An empty parameter always matches.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { macroParam } from './macro-param.js';

function isWordByte(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
}

export const containsWord: OperatorFactory = (param) => {
  const text = macroParam(param);
  return (input, runtime) => {
    const word = text(runtime);
    if (word.length === 0) return true;
    for (let i = input.indexOf(word); i >= 0; i = input.indexOf(word, i + 1)) {
      const before = i === 0 || !isWordByte(input.charCodeAt(i - 1));
      const end = i + word.length;
      const after = end === input.length || !isWordByte(input.charCodeAt(end));
      if (before && after) return true;
    }
    return false;
  };
};

export const containsWordOperator: OperatorDefinition = { create: containsWord, pure: true, effectsOnMatch: false, requiredBytes: null };
