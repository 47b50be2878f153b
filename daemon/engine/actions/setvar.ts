// setvar:tx.name=value, =+N, =-N, !tx.name, tx.name (sets 1). The name and value may hold
// macros. Arithmetic works on integers, as ModSecurity's does (atoi of both sides).
import type { ActionDefinition } from './action.js';
import type { ActionContext } from './context.js';
import { Macro } from '../macros/macro.js';
import { parseCollectionVariable } from './collection-name.js';

function toInt(text: string | undefined): number {
  if (text === undefined) return 0;
  const n = parseInt(text, 10);
  return Number.isNaN(n) ? 0 : n;
}

export const setvarAction: ActionDefinition = {
  name: 'setvar',
  kind: 'nondisruptive',
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
    rule.effects.push((tx: ActionContext) => {
      const col = tx.collectionFor(collection);
      if (col === undefined) return; // like ModSecurity: the collection was never initialised
      const key = name.expand(tx);
      if (op === 'remove') {
        col.delete(key);
        return;
      }
      const expanded = value.expand(tx);
      if (op === 'set') {
        col.set(key, expanded);
        return;
      }
      const current = toInt(col.get(key.toLowerCase(), tx.now()));
      const delta = toInt(expanded);
      col.set(key, String(op === 'add' ? current + delta : current - delta));
    });
  },
};
