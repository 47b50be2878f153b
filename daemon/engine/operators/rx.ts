// @rx: PCRE match (translated once at load, see ../regex/). With `capture`, TX.0 is the whole match
// and TX.1..9 the groups; TX.0..9 are unset first, as ModSecurity does. A parameter with %{macros}
// is expanded, passed through ModSecurity's log_escape_re() and compiled per distinct value.
import type { OperatorDefinition, OperatorEvaluate, OperatorFactory, OperatorRuntime, RequiredBytes } from './types.js';
import { compilePcre, pcreGroups, type PcreRegex } from '../regex/index.js';
import { logEscapeRe } from './log-escape-re.js';
import { parsePcre } from '../regex/parse.js';
import { requiredBytes } from '../rules/required-bytes.js';

const MACRO_CACHE_LIMIT = 64;

/** `^.*$` (or `.*`, `^.*`, `.*$`) matches any input whole, as ModSecurity compiles it (dot-all,
 *  `$` at the very end only): CRS captures each header name (920450) and the User-Agent (901318)
 *  with it on every request; the answer and TX:0 need no exec. */
const MATCHES_WHOLE_INPUT = /^\^?\.\*\$?$/;

export const rx: OperatorFactory = (param) => {
  if (MATCHES_WHOLE_INPUT.test(param)) return wholeInput;
  if (!param.includes('%{')) {
    const re = compilePcre(param);
    return matcher(re);
  }
  compilePcre(logEscapeRe(param.replace(/%\{[^}]*\}/g, 'x'))); // reject a broken pattern at load, not per request
  const cache = new Map<string, OperatorEvaluate>();
  return (input, runtime) => {
    const pattern = logEscapeRe(runtime.expandMacros(param));
    let evaluate = cache.get(pattern);
    if (!evaluate) {
      try {
        evaluate = matcher(compilePcre(pattern));
      } catch {
        evaluate = () => false; // ModSecurity: a pattern that fails to compile at run time does not match
      }
      if (cache.size >= MACRO_CACHE_LIMIT) cache.delete(cache.keys().next().value!);
      cache.set(pattern, evaluate);
    }
    return evaluate(input, runtime);
  };
};

// TX:0 is updated where it stands and TX:1..9 unset after, as @pm does (and as ModSecurity v2
// stores captures: apr_table_setn in place, then unset the rest): the order of TX's names is
// all that differs from unsetting first, and only a TX:/regex/ selecting digits could see it.
const wholeInput: OperatorEvaluate = (input, runtime) => {
  if (runtime.capturing) {
    runtime.setCapture(0, input);
    for (let i = 1; i <= 9; i++) runtime.unsetCapture?.(i);
  }
  return true;
};

function matcher(re: PcreRegex): OperatorEvaluate {
  const { regex } = re;
  return (input: string, runtime: OperatorRuntime) => {
    // With a time budget (../budget/), every exec goes through it: it counts the bytes scanned,
    // reads the clock now and then, and runs an exec on a long subject interruptibly.
    const budget = runtime.budget;
    if (!runtime.capturing) return budget === undefined ? regex.test(input) : budget.test(regex, input);
    const m = budget === undefined ? regex.exec(input) : budget.exec(regex, input);
    if (m === null) return false;
    for (let i = 0; i <= 9; i++) runtime.unsetCapture?.(i);
    const groups = pcreGroups(re, m, 9);
    // PCRE reports groups up to the last one that took part in the match.
    let last = groups.length - 1;
    while (last > 0 && m[re.captureMap[last]] === undefined) last--;
    for (let i = 0; i <= last; i++) runtime.setCapture(i, groups[i]);
    return true;
  };
}

/** The bytes every match needs one of, from the pattern parsed as `rx` compiles it (PCRE defaults:
 *  DOTALL, no UTF mode, see ../regex/). */
function pcreRequiredBytes(param: string): RequiredBytes {
  return requiredBytes(parsePcre(param, { caseless: false, dotall: true, multiline: false, extended: false }).ast);
}

export const rxOperator: OperatorDefinition = { create: rx, pure: true, effectsOnMatch: false, requiredBytes: pcreRequiredBytes };
