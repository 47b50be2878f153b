// initcol:ip=%{remote_addr} (also global, resource, session, user) — opens a persistent
// collection record for the rest of the transaction. setsid / setuid open SESSION / USER.
import type { ActionDefinition } from './action.js';
import type { ActionContext } from './context.js';
import { Macro } from '../macros/macro.js';

const PERSISTENT = new Set(['IP', 'GLOBAL', 'RESOURCE', 'SESSION', 'USER']);

export const initcolAction: ActionDefinition = {
  name: 'initcol',
  kind: 'nondisruptive',
  reach: 'outside',
  param: 'required',
  apply(rule, param, ctx) {
    const text = param!.trim();
    const eq = text.indexOf('=');
    if (eq <= 0) throw new Error(`initcol expects collection=key, got "${param}"`);
    const collection = text.slice(0, eq).trim().toUpperCase();
    if (!PERSISTENT.has(collection)) throw new Error(`initcol: ${collection} is not a persistent collection`);
    const key = Macro.compile(text.slice(eq + 1), ctx.location);
    rule.effects.push((tx: ActionContext) => tx.openPersistent(collection, key.expand(tx)));
  },
};

function opener(name: string, collection: string): ActionDefinition {
  return {
    name,
    kind: 'nondisruptive',
    reach: 'outside',
    param: 'required',
    apply(rule, param, ctx) {
      const key = Macro.compile(param!.trim(), ctx.location);
      rule.effects.push((tx: ActionContext) => tx.openPersistent(collection, key.expand(tx)));
    },
  };
}

export const setsidAction = opener('setsid', 'SESSION');
export const setuidAction = opener('setuid', 'USER');
