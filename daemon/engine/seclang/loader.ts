// Reads configuration files into one directive stream, following Include (and
// IncludeOptional) with globs; relative include paths resolve against the including file's
// directory. Include cycles and missing files fail the load with file:line.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { lexConfig, type Directive } from './lexer.js';
import { expandIncludePattern } from './glob.js';
import { SecLangError } from './errors.js';

const MAX_INCLUDE_DEPTH = 32;

function expandDirectives(directives: Directive[], baseDir: string, stack: string[], out: Directive[]): void {
  for (const directive of directives) {
    const lower = directive.name.toLowerCase();
    if (lower !== 'include' && lower !== 'includeoptional') {
      out.push(directive);
      continue;
    }
    const where = { file: directive.file, line: directive.line };
    if (directive.args.length !== 1) throw new SecLangError(where, `${directive.name} takes exactly one path`);
    if (stack.length >= MAX_INCLUDE_DEPTH) throw new SecLangError(where, 'Include nested too deeply (cycle?)');
    const base = directive.file.startsWith('<') ? baseDir : dirname(directive.file);
    const paths = expandIncludePattern(directive.args[0], base);
    const optional = lower === 'includeoptional';
    const existing = paths.filter((p) => existsSync(p));
    if (existing.length === 0 && !optional && !/[*?[]/.test(directive.args[0])) {
      throw new SecLangError(where, `Include: cannot read ${paths[0]}`);
    }
    for (const path of existing) {
      if (stack.includes(path)) throw new SecLangError(where, `Include cycle: ${path}`);
      const text = readFileSync(path, 'latin1');
      expandDirectives(lexConfig(text, path), dirname(path), [...stack, path], out);
    }
  }
}

/** Lexes config text (named `source` in errors) and expands its Includes. */
export function loadConfigText(text: string, source: string, baseDir: string): Directive[] {
  const out: Directive[] = [];
  expandDirectives(lexConfig(text, source), baseDir, source.startsWith('<') ? [] : [resolve(source)], out);
  return out;
}

/** Reads one configuration file and everything it includes. */
export function loadConfigFile(path: string): Directive[] {
  const absolute = resolve(path);
  let text: string;
  try {
    text = readFileSync(absolute, 'latin1');
  } catch (err) {
    throw new SecLangError({ file: absolute, line: 0 }, `cannot read: ${(err as Error).message}`);
  }
  return loadConfigText(text, absolute, dirname(absolute));
}
