// @rbl: DNS block-list lookups need the network on the request path, which this edge WAF does not
// use. Decision: the rule loads (CRS 3.3 ships one, disabled unless a Project Honey Pot key is set)
// and the operator never matches. See README.md.
import type { OperatorDefinition, OperatorFactory } from './types.js';

export const rbl: OperatorFactory = (param) => {
  if (param.trim().length === 0) throw new Error("missing parameter for operator 'rbl'");
  return () => false;
};

export const rblOperator: OperatorDefinition = { create: rbl, pure: false, effectsOnMatch: true, requiredBytes: null };
