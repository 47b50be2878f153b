// `@rx pattern`, `!@pm a b c`, or a bare pattern (which means @rx) -> a compiled operator.
import type { CompiledOperator } from './rule.js';
import type { OperatorDefinition } from '../operators/types.js';
import { SecLangError, type SourceLocation } from '../seclang/errors.js';
import { dirname } from 'node:path';

export function compileOperator(
  text: string,
  operators: ReadonlyMap<string, OperatorDefinition>,
  where: SourceLocation,
): CompiledOperator {
  let p = text.replace(/^\s+/, '');
  const negated = p.startsWith('!');
  if (negated) p = p.slice(1).replace(/^\s+/, '');
  let name = 'rx';
  let param = p;
  if (p.startsWith('@')) {
    const space = p.search(/\s/);
    name = (space < 0 ? p.slice(1) : p.slice(1, space)).toLowerCase();
    param = space < 0 ? '' : p.slice(space).replace(/^\s+/, '');
  }
  const definition = operators.get(name);
  if (definition === undefined) throw new SecLangError(where, `unknown operator @${name}`);
  try {
    const ruleDir = where.file.startsWith('<') ? process.cwd() : dirname(where.file);
    const evaluate = definition.create(param, { file: where.file, line: where.line, ruleDir });
    return { name, param, negated, evaluate, definition, readsMacros: param.includes('%{') };
  } catch (err) {
    if (err instanceof SecLangError) throw err;
    throw new SecLangError(where, `@${name}: ${(err as Error).message}`);
  }
}
