// Tiny stand-ins for the operator, transformation and body-processor registries, for the
// engine-core unit tests only (the real ones are tested in their own folders).
import type { EngineRegistries } from '../../../../daemon/engine/registries.js';
import type { OperatorDefinition, OperatorFactory } from '../../../../daemon/engine/operators/types.js';
import type { Transformation, TransformationDefinition } from '../../../../daemon/engine/transformations/types.js';
import type { BodyProcessor } from '../../../../daemon/engine/body-processors/types.js';

/** A registry entry for a stand-in operator: pure (so init-fold may run it), no effects on a
 *  match, no byte gate, unless the test says otherwise. */
export function testOperator(create: OperatorFactory, properties: Partial<Omit<OperatorDefinition, 'create'>> = {}): OperatorDefinition {
  return { create, pure: true, effectsOnMatch: false, requiredBytes: null, ...properties };
}

/** A registry entry for a stand-in transformation: no trigger bytes, so it always runs. */
function testTransformation(apply: Transformation): TransformationDefinition {
  return { apply, triggerBytes: null };
}

const operators = new Map<string, OperatorFactory>([
  ['rx', (param) => {
    const re = new RegExp(param, 's');
    return (input, runtime) => {
      const m = re.exec(input);
      if (m === null) return false;
      if (runtime.capturing) m.forEach((g, i) => i < 10 && runtime.setCapture(i, g ?? ''));
      return true;
    };
  }],
  ['streq', (param) => (input, runtime) => input === runtime.expandMacros(param)],
  ['eq', (param) => (input, runtime) => Number(input) === Number(runtime.expandMacros(param))],
  ['ge', (param) => (input, runtime) => Number(input) >= Number(runtime.expandMacros(param))],
  ['lt', (param) => (input, runtime) => Number(input) < Number(runtime.expandMacros(param))],
  ['within', (param) => (input, runtime) => runtime.expandMacros(param).includes(input)],
  ['unconditionalmatch', () => () => true],
  ['contains', (param) => (input) => input.includes(param)],
]);

const transformations = new Map<string, Transformation>([
  ['lowercase', (s) => s.toLowerCase()],
  ['urldecode', (s) => s.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))],
  ['removewhitespace', (s) => s.replace(/\s+/g, '')],
  ['length', (s) => String(s.length)],
]);

const urlencoded: BodyProcessor = (body) => ({
  args: body
    .toString('latin1')
    .split('&')
    .filter(Boolean)
    .map((p) => {
      const eq = p.indexOf('=');
      return (eq < 0 ? [p, ''] : [p.slice(0, eq), p.slice(eq + 1)]) as [string, string];
    }),
  files: [],
});

export const testRegistries: EngineRegistries = {
  operators: new Map([...operators].map(([name, create]) => [name, testOperator(create)])),
  transformations: new Map([...transformations].map(([name, apply]) => [name, testTransformation(apply)])),
  bodyProcessors: new Map([['URLENCODED', urlencoded]]),
};
