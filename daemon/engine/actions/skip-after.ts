// skipAfter:MARKER — after a match, continue after the SecMarker (or rule id) of that name.
import type { ActionDefinition } from './action.js';

export const skipAfterAction: ActionDefinition = {
  name: 'skipafter',
  kind: 'flow',
  reach: 'flow',
  param: 'required',
  apply(rule, param) {
    rule.skipAfter = param!.trim();
  },
};
