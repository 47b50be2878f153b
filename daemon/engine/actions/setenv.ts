// setenv:name=value — sets a variable in ENV (for this transaction; Node's process
// environment is never touched).
import type { ActionDefinition } from './action.js';
import type { ActionContext } from './context.js';
import { Macro } from '../macros/macro.js';

export const setenvAction: ActionDefinition = {
  name: 'setenv',
  kind: 'nondisruptive',
  reach: 'outside',
  param: 'required',
  apply(rule, param, ctx) {
    let text = param!.trim();
    const remove = text.startsWith('!');
    if (remove) text = text.slice(1);
    const eq = text.indexOf('=');
    const name = Macro.compile(eq < 0 ? text : text.slice(0, eq), ctx.location);
    const value = Macro.compile(eq < 0 ? '1' : text.slice(eq + 1), ctx.location);
    rule.effects.push((tx: ActionContext) => {
      if (remove) tx.env.delete(name.expand(tx));
      else tx.env.set(name.expand(tx), value.expand(tx));
    });
  },
};
