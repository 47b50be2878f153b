// @ipMatch: the input is an address inside one of the comma-separated addresses / CIDR ranges.
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { IpSet } from './ip-set.js';

export const ipMatch: OperatorFactory = (param) => {
  const set = new IpSet();
  for (const entry of param.split(',')) {
    if (entry.trim().length === 0) continue;
    set.add(entry);
  }
  if (set.size === 0) throw new Error("missing parameter for operator 'ipMatch'");
  return (input) => set.has(input);
};

export const ipMatchOperator: OperatorDefinition = { create: ipMatch, pure: false, effectsOnMatch: false, requiredBytes: null };
