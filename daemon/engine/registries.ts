// The three plug-in registries the rule compiler and transactions consume (see CONTRACT.md).
import type { OperatorDefinition } from './operators/types.js';
import type { TransformationDefinition } from './transformations/types.js';
import type { BodyProcessor } from './body-processors/types.js';

export interface EngineRegistries {
  operators: ReadonlyMap<string, OperatorDefinition>;
  transformations: ReadonlyMap<string, TransformationDefinition>;
  bodyProcessors: ReadonlyMap<string, BodyProcessor>;
}
