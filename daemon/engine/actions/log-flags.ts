// log / nolog / auditlog / noauditlog: whether a match is logged (nolog also implies
// noauditlog, as in ModSecurity).
import type { ActionDefinition } from './action.js';

export const logAction: ActionDefinition = {
  name: 'log',
  kind: 'data',
  reach: 'rule',
  param: 'none',
  apply(rule) {
    rule.log = true;
  },
};

export const nologAction: ActionDefinition = {
  name: 'nolog',
  kind: 'data',
  reach: 'rule',
  param: 'none',
  apply(rule) {
    rule.log = false;
    rule.auditlog = false;
  },
};

export const auditlogAction: ActionDefinition = {
  name: 'auditlog',
  kind: 'data',
  reach: 'rule',
  param: 'none',
  apply(rule) {
    rule.auditlog = true;
  },
};

export const noauditlogAction: ActionDefinition = {
  name: 'noauditlog',
  kind: 'data',
  reach: 'rule',
  param: 'none',
  apply(rule) {
    rule.auditlog = false;
  },
};
