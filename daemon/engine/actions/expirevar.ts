// expirevar:ip.name=seconds — the variable disappears after that many seconds.
import type { ActionDefinition } from './action.js';
import type { ActionContext } from './context.js';
import { Macro } from '../macros/macro.js';
import { parseCollectionVariable } from './collection-name.js';

export const expirevarAction: ActionDefinition = {
  name: 'expirevar',
  kind: 'nondisruptive',
  reach: 'outside',
  param: 'required',
  apply(rule, param, ctx) {
    const text = param!.trim();
    const eq = text.indexOf('=');
    const { collection, name } = parseCollectionVariable(eq < 0 ? text : text.slice(0, eq), ctx.location);
    const seconds = Macro.compile(eq < 0 ? '0' : text.slice(eq + 1), ctx.location);
    rule.effects.push((tx: ActionContext) => {
      const col = tx.collectionFor(collection);
      if (col === undefined) return;
      const s = parseInt(seconds.expand(tx), 10);
      if (!Number.isFinite(s)) return;
      col.expire(name.expand(tx), tx.now() + s * 1000);
    });
  },
};
