// setvar:tx.name=value, =+N, =-N, !tx.name, tx.name (sets 1). The name and value may hold
// macros. Arithmetic works on integers, as ModSecurity's does (atoi of both sides).
import type { ActionDefinition } from './action.js';
import type { ActionContext } from './context.js';
import { Macro } from '../macros/macro.js';
import { parseCollectionVariable } from './collection-name.js';
import { nameSlot } from '../collections/name-slots.js';
import { StringMemo } from '../macros/string-memo.js';

function toInt(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = parseInt(text, 10);
  return Number.isNaN(n) ? 0 : n;
}

function arithmetic(op: 'add' | 'sub', current: string | undefined, delta: string): string {
  return String(op === 'add' ? toInt(current) + toInt(delta) : toInt(current) - toInt(delta));
}

export const setvarAction: ActionDefinition = {
  name: 'setvar',
  kind: 'nondisruptive',
  reach: 'transaction',
  param: 'required',
  apply(rule, param, ctx) {
    let text = param!.trim();
    const remove = text.startsWith('!');
    if (remove) text = text.slice(1);
    const eq = text.indexOf('=');
    const target = parseCollectionVariable(eq < 0 ? text : text.slice(0, eq), ctx.location);
    let op: 'set' | 'add' | 'sub' | 'remove' = remove ? 'remove' : 'set';
    let valueText = eq < 0 ? '1' : text.slice(eq + 1);
    if (!remove && eq >= 0 && (valueText.startsWith('+') || valueText.startsWith('-'))) {
      op = valueText.startsWith('+') ? 'add' : 'sub';
      valueText = valueText.slice(1);
    }
    const value = Macro.compile(valueText, ctx.location);
    const { collection, name } = target;
    // Most names are constant (`tx.anomaly_score_pl1`): lower-cased once here, not per match.
    const fixedName = name.isConstant ? name.text : undefined;
    const fixedLower = fixedName?.toLowerCase();
    const fixedSlot = fixedLower === undefined ? -1 : nameSlot(fixedLower);
    // A name built per match repeats (one per argument name): lower-cased once per distinct name.
    const lowerOf = fixedName === undefined ? new StringMemo((key) => key.toLowerCase()) : undefined;
    rule.effects.push((tx: ActionContext) => {
      const col = tx.collectionFor(collection);
      if (col === undefined) return; // like ModSecurity: the collection was never initialised
      const key = fixedName ?? name.expand(tx);
      if (op === 'remove') {
        col.delete(key);
        return;
      }
      const expanded = value.expand(tx);
      if (fixedSlot < 0) {
        const lower = lowerOf === undefined ? key.toLowerCase() : lowerOf.get(key);
        const current = op === 'set' ? '' : col.get(lower, col.expiring ? tx.now() : 0);
        col.setLowered(lower, key, op === 'set' ? expanded : arithmetic(op, current, expanded));
        return;
      }
      const current = op === 'set' ? '' : col.getBySlot(fixedSlot, col.expiring ? tx.now() : 0);
      col.setBySlot(fixedSlot, fixedLower!, key, op === 'set' ? expanded : arithmetic(op, current, expanded));
    });
  },
};
