// logdata:'text' — the data logged on a match (CRS: `Matched Data: %{TX.0} found within ...`).
import type { ActionDefinition } from './action.js';
import { Macro } from '../macros/macro.js';

export const logdataAction: ActionDefinition = {
  name: 'logdata',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param, ctx) {
    rule.logdata = Macro.compile(param!, ctx.location);
  },
};
