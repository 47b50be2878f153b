// Applies parsed action texts to a Rule through the action registry, with file:line errors.
import type { Rule } from './rule.js';
import type { ActionText } from './action-list.js';
import type { ActionCompileContext } from '../actions/action.js';
import { actions } from '../actions/index.js';
import { SecLangError } from '../seclang/errors.js';

export function applyActions(rule: Rule, list: readonly ActionText[], ctx: ActionCompileContext): void {
  for (const { name, param } of list) {
    const action = actions.get(name.toLowerCase());
    if (action === undefined) throw new SecLangError(ctx.location, `unknown action "${name}"`);
    if (action.param === 'required' && (param === undefined || param === '')) {
      throw new SecLangError(ctx.location, `action "${name}" needs a parameter`);
    }
    if (action.param === 'none' && param !== undefined) {
      throw new SecLangError(ctx.location, `action "${name}" takes no parameter`);
    }
    rule.actionTexts.push({ name, param });
    try {
      action.apply(rule, param, ctx);
    } catch (err) {
      if (err instanceof SecLangError) throw err;
      throw new SecLangError(ctx.location, `${name}: ${(err as Error).message}`);
    }
  }
}
