// Macro text (`%{tx.critical_anomaly_score}`, `%{MATCHED_VAR}`, `%{rule.id}`): compiled at
// load into literal and variable parts, so expanding one is a few lookups, never a parse.
import type { VariableDefinition } from '../variables/definition.js';
import type { VariableContext } from '../variables/context.js';
import { variables } from '../variables/index.js';
import { nameSlot } from '../collections/name-slots.js';
import { SecLangError, type SourceLocation } from '../seclang/errors.js';
import { StringMemo } from './string-memo.js';

interface VariablePart {
  variable: VariableDefinition;
  keyLower: string | undefined;
  /** `%{tx.name}`, the common case: the name's slot in the TX collection, else -1. */
  txSlot: number;
}

type MacroPart = string | VariablePart;

const MACRO = /%\{([^}]*)\}/g;

export class Macro {
  /** For text around exactly one variable (`tx.paramcounter_%{MATCHED_VAR_NAME}`): the text
   *  without it, and expansions by the variable's value (string-memo.ts). */
  private readonly around: { part: VariablePart; bare: string; memo: StringMemo } | undefined;

  private constructor(
    readonly text: string,
    private readonly parts: readonly MacroPart[],
  ) {
    const variables = parts.filter((p) => typeof p !== 'string');
    const at = parts.findIndex((p) => typeof p !== 'string');
    if (variables.length === 1 && parts.length > 1) {
      const before = parts.slice(0, at).join('');
      const after = parts.slice(at + 1).join('');
      this.around = { part: variables[0] as VariablePart, bare: before + after, memo: new StringMemo((value) => before + value + after) };
    }
  }

  get isConstant(): boolean {
    return this.parts.every((p) => typeof p === 'string');
  }

  /** Text without macro expansion (a parameter whose macros cannot be resolved). */
  static literal(text: string): Macro {
    return new Macro(text, [text]);
  }

  static compile(text: string, where: SourceLocation): Macro {
    const parts: MacroPart[] = [];
    let last = 0;
    for (const m of text.matchAll(MACRO)) {
      if (m.index > last) parts.push(text.slice(last, m.index));
      const ref = m[1];
      const sep = ref.search(/[.:]/);
      const name = (sep < 0 ? ref : ref.slice(0, sep)).toUpperCase();
      const variable = variables.get(name);
      if (variable === undefined) throw new SecLangError(where, `unknown variable ${name} in macro %{${ref}}`);
      const keyLower = sep < 0 ? undefined : ref.slice(sep + 1).toLowerCase();
      parts.push({ variable, keyLower, txSlot: name === 'TX' && keyLower !== undefined ? nameSlot(keyLower) : -1 });
      last = m.index + m[0].length;
    }
    if (last < text.length) parts.push(text.slice(last));
    return new Macro(text, parts);
  }

  expand(ctx: VariableContext): string {
    const parts = this.parts;
    if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
    const around = this.around;
    if (around !== undefined) {
      const value = valueOf(around.part, ctx);
      return value === undefined ? around.bare : around.memo.get(value);
    }
    let out = '';
    for (const part of parts) {
      if (typeof part === 'string') {
        out += part;
        continue;
      }
      const value = valueOf(part, ctx);
      if (value !== undefined) out += value;
    }
    return out;
  }
}

/** The text a variable part stands for, or undefined when the variable has no value. */
function valueOf(part: VariablePart, ctx: VariableContext): string | undefined {
  if (part.txSlot >= 0) return ctx.tx.getBySlot(part.txSlot);
  const { variable, keyLower } = part;
  if (keyLower === undefined && variable.read !== undefined) {
    // A scalar: its text directly (what entries(ctx)[0].value would be, without the entry).
    const value = variable.read(ctx);
    return value === undefined ? undefined : String(value);
  }
  const found =
    keyLower === undefined
      ? variable.entries(ctx)
      : variable.byKey
        ? variable.byKey(ctx, keyLower)
        : variable.entries(ctx).filter((e) => e.key.toLowerCase() === keyLower);
  return found.length > 0 ? found[0].value : undefined;
}
