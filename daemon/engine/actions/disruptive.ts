// The disruptive actions: pass, block (the phase's default action), deny, drop, allow
// (allow, allow:phase, allow:request) and redirect:URL. The last one written wins.
import type { ActionDefinition } from './action.js';
import type { DisruptiveKind } from '../rules/rule.js';
import { Macro } from '../macros/macro.js';

function simple(kind: Exclude<DisruptiveKind, 'allow' | 'redirect'>): ActionDefinition {
  return {
    name: kind,
    kind: 'disruptive',
    reach: kind === 'pass' ? 'rule' : 'transaction',
    param: 'none',
    apply(rule) {
      rule.disruptive = { kind };
    },
  };
}

export const passAction = simple('pass');
export const blockAction = simple('block');
export const denyAction = simple('deny');
export const dropAction = simple('drop');

export const allowAction: ActionDefinition = {
  name: 'allow',
  kind: 'disruptive',
  reach: 'transaction',
  param: 'optional',
  apply(rule, param) {
    const scope = (param ?? '').trim().toLowerCase();
    if (scope !== '' && scope !== 'phase' && scope !== 'request') {
      throw new Error(`allow takes no parameter, "phase" or "request", got "${param}"`);
    }
    rule.disruptive = { kind: 'allow', allowScope: scope };
  },
};

export const redirectAction: ActionDefinition = {
  name: 'redirect',
  kind: 'disruptive',
  reach: 'transaction',
  param: 'required',
  apply(rule, param, ctx) {
    rule.disruptive = { kind: 'redirect', redirectUrl: Macro.compile(param!, ctx.location) };
  },
};
