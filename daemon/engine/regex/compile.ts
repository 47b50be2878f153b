// Compiles a SecLang regex once, at rule load. ModSecurity v2 hands every pattern to PCRE with
// PCRE_DOTALL | PCRE_DOLLAR_ENDONLY and without UTF mode; the options here default to that.
import { emitJs } from './emit.js';
import { PcreSyntaxError } from './escapes.js';
import { parsePcre } from './parse.js';
import { relaxPossessives } from './relax-possessive.js';
import type { Alternation } from './ast.js';

export interface PcreOptions {
  caseless?: boolean;
  multiline?: boolean;
  dotall?: boolean;
}

export interface PcreRegex {
  /** The original PCRE pattern. */
  readonly pattern: string;
  /** Non-global JS regex: safe to share, exec() keeps no state. */
  readonly regex: RegExp;
  /** Number of capturing groups in the PCRE pattern. */
  readonly groupCount: number;
  /** captureMap[n] = index in a JS match array of PCRE group n. */
  readonly captureMap: readonly number[];
  /** The parsed pattern (every inline option resolved), for analyses of it (the byte gate's tests). */
  readonly ast: Alternation;
}

export function compilePcre(pattern: string, options: PcreOptions = {}): PcreRegex {
  let source: string, flags: string, captureMap: number[], groupCount: number, ast: Alternation;
  try {
    const parsed = parsePcre(pattern, {
      caseless: options.caseless ?? false,
      dotall: options.dotall ?? true,
      multiline: options.multiline ?? false,
      extended: false,
    });
    relaxPossessives(parsed.ast);
    ({ source, flags, captureMap } = emitJs(parsed.ast, parsed.groupCount));
    groupCount = parsed.groupCount;
    ast = parsed.ast;
  } catch (err) {
    if (err instanceof PcreSyntaxError) throw new Error(`invalid regular expression /${shorten(pattern)}/: ${err.message}`);
    throw err;
  }
  let regex: RegExp;
  try {
    regex = new RegExp(source, flags);
  } catch (err) {
    throw new Error(`regular expression /${shorten(pattern)}/ does not compile in JavaScript: ${(err as Error).message}`);
  }
  return { pattern, regex, groupCount, captureMap, ast };
}

/** The PCRE groups 0..limit of a match, in PCRE numbering; unset groups are ''. */
export function pcreGroups(re: PcreRegex, match: RegExpExecArray, limit: number): string[] {
  const out: string[] = [];
  const last = Math.min(limit, re.groupCount);
  for (let n = 0; n <= last; n++) out.push(match[re.captureMap[n]] ?? '');
  return out;
}

function shorten(pattern: string): string {
  return pattern.length > 120 ? pattern.slice(0, 117) + '...' : pattern;
}
