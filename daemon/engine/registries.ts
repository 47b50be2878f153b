// The three plug-in registries the rule compiler and transactions consume (see CONTRACT.md).
import type { OperatorFactory } from './operators/types.js';
import type { Transformation } from './transformations/types.js';
import type { BodyProcessor } from './body-processors/types.js';

export interface EngineRegistries {
  operators: ReadonlyMap<string, OperatorFactory>;
  transformations: ReadonlyMap<string, Transformation>;
  bodyProcessors: ReadonlyMap<string, BodyProcessor>;
}
