// @ipMatchFromFile / @ipMatchF: @ipMatch with one address or range per line of a file (relative to
// the rule file's directory). Blank lines and '#' comments are skipped; other junk fails the load.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { IpSet } from './ip-set.js';

export const ipMatchFromFile: OperatorFactory = (param, ctx) => {
  const file = param.trim();
  if (file.length === 0) throw new Error("missing parameter for operator 'ipMatchFromFile'");
  if (/^https?:\/\//i.test(file)) throw new Error(`ipMatchFromFile: remote lists are not supported (${file})`);
  const path = isAbsolute(file) ? file : resolve(ctx.ruleDir, file);
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (err) {
    throw new Error(`could not open ipmatch file "${path}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const set = new IpSet();
  text.split('\n').forEach((raw, i) => {
    const line = raw.trim();
    if (line.length === 0 || line.startsWith('#')) return;
    try {
      set.add(line);
    } catch (err) {
      throw new Error(`${path} line ${i + 1}: ${(err as Error).message}`);
    }
  });
  return (input) => set.has(input);
};

export const ipMatchFromFileOperator: OperatorDefinition = { create: ipMatchFromFile, pure: false, effectsOnMatch: false, requiredBytes: null };
