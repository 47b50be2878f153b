// Operators with a macro in their parameter (`@within %{tx.allowed_methods}`) ask for it to
// be expanded per call; the macro text is compiled the first time it is seen and reused.
import { Macro } from './macro.js';

const compiled = new Map<string, Macro>();

export function cachedMacro(text: string): Macro {
  let macro = compiled.get(text);
  if (macro === undefined) {
    try {
      macro = Macro.compile(text, { file: '<operator parameter>', line: 0 });
    } catch {
      // Never fail a request: an unknown variable in an operator's macro stays literal text.
      macro = Macro.literal(text);
    }
    compiled.set(text, macro);
  }
  return macro;
}
