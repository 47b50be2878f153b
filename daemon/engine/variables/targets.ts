// Parses the variable part of a SecRule (`ARGS|!ARGS:foo|&TX:x|REQUEST_COOKIES:/^__utm/`) into
// compiled targets. Keys compare case-insensitively; `/.../` selectors are regexes over the
// names (case-insensitive, as ModSecurity v2 compiles them); `!` entries exclude names from the
// same variable; `&` counts. Everything is checked here, at load.
import type { VariableDefinition } from './definition.js';
import type { VarEntry } from '../collections/keyed-list.js';
import { variables } from './index.js';
import { SecLangError, type SourceLocation } from '../seclang/errors.js';
import { memoizedKeyTest, type KeyTest } from './key-regex-memo.js';

export interface KeySelector {
  /** Lower-cased key, or undefined when a regex or nothing selects. */
  keyLower?: string;
  keyRegex?: RegExp;
  /** keyRegex.test, memoized (key-regex-memo.ts); set with keyRegex. */
  keyTest?: KeyTest;
}

export interface CompiledTarget extends KeySelector {
  readonly variable: VariableDefinition;
  /** The target as written, for messages. */
  readonly text: string;
  readonly count: boolean;
  /** XML XPath selector. */
  readonly expression?: string;
  /** The rule's fixed exclusions for this variable (`!ARGS:foo`), set when the rule set is
   *  finished; rules with equal groups share one group (see Transaction.withoutExcluded). */
  readonly excluded?: ExclusionGroup;
  /** For a variable whose values only change between phases: the slot its entries (after
   *  `excluded`) are kept in for the phase; -1 otherwise. Set when the rule set is finished. */
  readonly slot?: number;
  /** For `TX:name` (any writable collection with a plain key): the name's slot
   *  (collections/name-slots.ts); -1 otherwise. Set when the rule set is finished. */
  readonly nameSlot?: number;
}

/** Equal exclusions of a variable (same selectors) across rules, numbered for per-transaction caches. */
export interface ExclusionGroup {
  readonly index: number;
  readonly selectors: readonly KeySelector[];
}

export interface TargetExclusion extends KeySelector {
  /** Upper-case variable name. */
  readonly variableName: string;
}

export interface ParsedTargets {
  targets: CompiledTarget[];
  exclusions: TargetExclusion[];
}

/** Splits on '|' outside /regex/ selectors and quotes (XML:/... is an XPath, not a regex). */
export function splitTargetList(text: string): string[] {
  const parts: string[] = [];
  let current = '';
  let inRegex = false;
  let quote = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote !== '') {
      if (ch === quote) quote = '';
      current += ch;
      continue;
    }
    if (inRegex) {
      if (ch === '\\' && i + 1 < text.length) {
        current += ch + text[++i];
        continue;
      }
      if (ch === '/') inRegex = false;
      current += ch;
      continue;
    }
    if (ch === "'" && current.endsWith(':')) quote = ch;
    else if (ch === '/' && current.endsWith(':') && !/^[!&]?XML:$/i.test(current.trim())) inRegex = true;
    if ((ch === '|' || ch === ',') && !inRegex) {
      if (current.trim() !== '') parts.push(current.trim());
      current = '';
      continue;
    }
    current += ch;
  }
  if (current.trim() !== '') parts.push(current.trim());
  return parts;
}

function parseSelector(selector: string, where: SourceLocation, written: string): KeySelector {
  let s = selector;
  if (s.length >= 2 && s.startsWith("'") && s.endsWith("'")) s = s.slice(1, -1);
  if (s.length >= 2 && s.startsWith('/') && s.endsWith('/')) {
    try {
      const keyRegex = new RegExp(s.slice(1, -1), 'is');
      return { keyRegex, keyTest: memoizedKeyTest(keyRegex) };
    } catch (err) {
      throw new SecLangError(where, `variable ${written}: bad selector regex: ${(err as Error).message}`);
    }
  }
  return { keyLower: s.toLowerCase() };
}

export function parseTargets(text: string, where: SourceLocation): ParsedTargets {
  const targets: CompiledTarget[] = [];
  const exclusions: TargetExclusion[] = [];
  for (const written of splitTargetList(text)) {
    let rest = written;
    const exclude = rest.startsWith('!');
    const count = rest.startsWith('&');
    if (exclude || count) rest = rest.slice(1);
    const colon = rest.indexOf(':');
    const name = (colon < 0 ? rest : rest.slice(0, colon)).toUpperCase();
    const selector = colon < 0 ? undefined : rest.slice(colon + 1);
    const variable = variables.get(name);
    if (variable === undefined) throw new SecLangError(where, `unknown variable ${name} in "${written}"`);
    if (selector !== undefined && !variable.collection) {
      throw new SecLangError(where, `variable ${name} takes no selector ("${written}")`);
    }
    if (exclude) {
      exclusions.push({ variableName: name, ...(selector === undefined ? {} : parseSelector(selector, where, written)) });
      continue;
    }
    if (selector !== undefined && variable.selectorIsExpression) {
      targets.push({ variable, text: written, count, expression: selector });
      continue;
    }
    targets.push({ variable, text: written, count, ...(selector === undefined ? {} : parseSelector(selector, where, written)) });
  }
  return { targets, exclusions };
}

/** `entries` without those any of `selectors` selects (the same array when none is). */
export function withoutSelected(entries: readonly VarEntry[], selectors: readonly KeySelector[]): readonly VarEntry[] {
  const out: VarEntry[] = [];
  outer: for (const e of entries) {
    for (const s of selectors) if (selectorMatches(s, e.key)) continue outer;
    out.push(e);
  }
  return out.length === entries.length ? entries : out;
}

/** True when `key` (as sent) is selected by `sel`; no key and no regex selects everything. */
export function selectorMatches(sel: KeySelector, key: string): boolean {
  if (sel.keyTest !== undefined) return sel.keyTest(key);
  if (sel.keyRegex !== undefined) return sel.keyRegex.test(key);
  if (sel.keyLower !== undefined) return key.toLowerCase() === sel.keyLower;
  return true;
}
