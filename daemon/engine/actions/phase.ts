// phase:1-5, or request (2), response (4), logging (5).
import type { ActionDefinition } from './action.js';
import type { Phase } from '../rules/rule.js';

const NAMED: Record<string, Phase> = { request: 2, response: 4, logging: 5 };

export const phaseAction: ActionDefinition = {
  name: 'phase',
  kind: 'metadata',
  reach: 'rule',
  param: 'required',
  apply(rule, param) {
    const text = param!.trim().toLowerCase();
    const phase = NAMED[text] ?? (/^[1-5]$/.test(text) ? (Number(text) as Phase) : undefined);
    if (phase === undefined) throw new Error(`phase must be 1-5, request, response or logging, got "${param}"`);
    rule.phase = phase;
    rule.phaseSet = true;
  },
};
