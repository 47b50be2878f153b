// msg:'text' — the message logged on a match; macros expand at match time.
import type { ActionDefinition } from './action.js';
import { Macro } from '../macros/macro.js';

export const msgAction: ActionDefinition = {
  name: 'msg',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param, ctx) {
    rule.msg = Macro.compile(param!, ctx.location);
  },
};
