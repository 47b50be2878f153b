// t:name — appends a transformation to the rule's chain; t:none clears it (and the
// transformations SecDefaultAction would add).
import type { ActionDefinition } from './action.js';

export const transformAction: ActionDefinition = {
  name: 't',
  kind: 'data',
  reach: 'rule',
  param: 'required',
  apply(rule, param, ctx) {
    const name = param!.trim().toLowerCase();
    if (name === 'none') {
      rule.transform = undefined;
      rule.transformReset = true;
      return;
    }
    const definition = ctx.transformations.get(name);
    if (definition === undefined) throw new Error(`unknown transformation "${param}"`);
    rule.transform = ctx.trie.step(rule.transform, name, definition);
  },
};
