// A SecLang variable: where its values come from in a transaction. Collections accept
// `NAME:key` and `NAME:/regex/` selectors; scalars produce one value named after themselves.
import { VarEntry } from '../collections/keyed-list.js';
import type { MutableCollection } from '../collections/mutable-collection.js';
import type { VariableContext } from './context.js';

export interface VariableDefinition {
  /** Upper-case SecLang name. */
  readonly name: string;
  /** Accepts `:key` selectors (ARGS, TX, REQUEST_HEADERS, XML, ...). */
  readonly collection: boolean;
  /** All values, in order. Scalars use key ''. */
  entries(ctx: VariableContext): readonly VarEntry[];
  /** Fast keyed lookup (key already lower-cased); defaults to filtering entries(). */
  byKey?(ctx: VariableContext, lowerKey: string): readonly VarEntry[];
  /** Its values cannot change while a phase runs (request, body and response data, the
   *  transaction's id and start time): the transaction keeps them per phase. */
  readonly stable?: boolean;
  /** TX, IP, GEO, ...: the writable collection behind the variable, for reads by name slot. */
  collectionOf?(ctx: VariableContext): MutableCollection | undefined;
  /** XML: the selector is an XPath expression passed through as written. */
  readonly selectorIsExpression?: boolean;
  byExpression?(ctx: VariableContext, expression: string): readonly VarEntry[];
  /** A scalar's value as `entries` would give it, without building the entry: macro expansion
   *  (`%{MATCHED_VAR_NAME}` in a setvar runs once per matching value) needs only the text. */
  readonly read?: (ctx: VariableContext) => string | number | undefined;
}

const NONE: readonly VarEntry[] = [];

/** A scalar variable: one value, or none when `read` returns undefined. */
export function scalar(name: string, read: (ctx: VariableContext) => string | number | undefined): VariableDefinition {
  return {
    name,
    collection: false,
    read,
    entries(ctx) {
      const raw = read(ctx);
      if (raw === undefined) return NONE;
      const value = typeof raw === 'number' ? String(raw) : raw;
      // One entry object per value per transaction, so its transformation results are reused.
      const cached = ctx.scalarCache.get(name);
      if (cached !== undefined && cached[0].value === value) return cached;
      const fresh = [new VarEntry('', value)];
      ctx.scalarCache.set(name, fresh);
      return fresh;
    },
  };
}

/** A collection variable backed by something with byKey/entries (KeyedList, MutableCollection). */
export function keyed(
  name: string,
  source: (ctx: VariableContext) => { entries: readonly VarEntry[] | (() => readonly VarEntry[]); byKey(lower: string): readonly VarEntry[] } | undefined,
): VariableDefinition {
  return {
    name,
    collection: true,
    entries(ctx) {
      const src = source(ctx);
      if (src === undefined) return NONE;
      return typeof src.entries === 'function' ? src.entries() : src.entries;
    },
    byKey(ctx, lowerKey) {
      return source(ctx)?.byKey(lowerKey) ?? NONE;
    },
  };
}

/** The same variable, marked as only changing between phases (see `stable`). */
export function stable(variable: VariableDefinition): VariableDefinition {
  return { ...variable, stable: true };
}

/** A variable backed by a writable collection (TX, IP, GEO, ...): keyed, and readable by slot. */
export function mutable(name: string, collectionOf: (ctx: VariableContext) => MutableCollection | undefined): VariableDefinition {
  return { ...keyed(name, collectionOf), collectionOf };
}
