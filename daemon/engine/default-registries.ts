// The engine's own operators, transformations and body processors, for callers that do not
// bring their own (the proxy, the CRS conformance runner, the benchmarks).
import type { EngineRegistries } from './registries.js';
import { operators } from './operators/index.js';
import { transformations } from './transformations/index.js';
import { bodyProcessors } from './body-processors/index.js';

export const defaultRegistries: EngineRegistries = { operators, transformations, bodyProcessors };
