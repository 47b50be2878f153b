// ver:'OWASP_CRS/3.3.4' — the rule set version, logged with each match.
import type { ActionDefinition } from './action.js';

export const verAction: ActionDefinition = {
  name: 'ver',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    rule.ver = param!;
  },
};
