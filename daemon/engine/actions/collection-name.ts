// Splits `tx.name` / `ip.name` (the collection part of setvar and expirevar) at load.
import { Macro } from '../macros/macro.js';
import type { SourceLocation } from '../seclang/errors.js';

export interface CollectionVariableRef {
  /** Upper-case collection name: TX, IP, GLOBAL, SESSION, USER, RESOURCE. */
  collection: string;
  /** The variable name, possibly with macros (`%{rule.id}-OWASP_CRS/...`). */
  name: Macro;
}

const WRITABLE = new Set(['TX', 'IP', 'GLOBAL', 'SESSION', 'USER', 'RESOURCE', 'ENV', 'GEO']);

export function parseCollectionVariable(text: string, where: SourceLocation): CollectionVariableRef {
  const dot = text.indexOf('.');
  if (dot <= 0) throw new Error(`expected collection.name, got "${text}"`);
  const collection = text.slice(0, dot).trim().toUpperCase();
  if (!WRITABLE.has(collection)) throw new Error(`collection ${collection} cannot be written`);
  const name = text.slice(dot + 1).trim();
  if (name === '') throw new Error(`missing variable name in "${text}"`);
  return { collection, name: Macro.compile(name, where) };
}
