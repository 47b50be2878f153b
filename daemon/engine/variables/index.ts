// The variable registry: every variable CRS 3.3 and 4.x use, keyed by upper-case name.
import type { VariableDefinition } from './definition.js';
import { requestVariables } from './request-variables.js';
import { bodyVariables } from './body-variables.js';
import { responseVariables } from './response-variables.js';
import { stateVariables } from './state-variables.js';

export const variables: ReadonlyMap<string, VariableDefinition> = new Map(
  [...requestVariables, ...bodyVariables, ...responseVariables, ...stateVariables].map((v) => [v.name, v]),
);

export type { VariableDefinition } from './definition.js';
