// A necessary condition for a regex match, over literal "atoms": `TRUE` (nothing known),
// `FALSE` (the regex can never match a byte string), an atom (this literal occurs in the input,
// ignoring ASCII case), and AND / OR of conditions. Atoms are stored ASCII-lower-cased: the scan
// folds the input the same way, so a case-sensitive literal is checked caselessly, which only
// ever makes the condition weaker, never wrong.

export type Cond =
  | { readonly k: 'true' }
  | { readonly k: 'false' }
  | { readonly k: 'atom'; readonly text: string }
  | { readonly k: 'and'; readonly parts: readonly Cond[] }
  | { readonly k: 'or'; readonly parts: readonly Cond[] };

export const TRUE: Cond = { k: 'true' };
export const FALSE: Cond = { k: 'false' };

export function atom(text: string): Cond {
  return text.length === 0 ? TRUE : { k: 'atom', text };
}

/** Conjunction, flattened: TRUE parts vanish, a FALSE part makes the whole FALSE. */
export function and(parts: readonly Cond[]): Cond {
  const out: Cond[] = [];
  for (const p of parts) {
    if (p.k === 'false') return FALSE;
    if (p.k === 'true') continue;
    if (p.k === 'and') out.push(...p.parts);
    else out.push(p);
  }
  if (out.length === 0) return TRUE;
  return out.length === 1 ? out[0] : { k: 'and', parts: out };
}

/** Disjunction, flattened: FALSE parts vanish, a TRUE part makes the whole TRUE. */
export function or(parts: readonly Cond[]): Cond {
  const out: Cond[] = [];
  for (const p of parts) {
    if (p.k === 'true') return TRUE;
    if (p.k === 'false') continue;
    if (p.k === 'or') out.push(...p.parts);
    else out.push(p);
  }
  if (out.length === 0) return FALSE;
  return out.length === 1 ? out[0] : { k: 'or', parts: out };
}

/** ASCII-only lower-casing, as PCRE's caseless matching without UTF mode folds. */
export function foldAscii(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    out += c >= 0x41 && c <= 0x5a ? String.fromCharCode(c | 0x20) : text[i];
  }
  return out;
}

/** Holds `cond` for `text`? (The reference semantics the scanner-based check must agree with.) */
export function holds(cond: Cond, foldedText: string): boolean {
  switch (cond.k) {
    case 'true': return true;
    case 'false': return false;
    case 'atom': return foldedText.includes(cond.text);
    case 'and': return cond.parts.every((p) => holds(p, foldedText));
    case 'or': return cond.parts.some((p) => holds(p, foldedText));
  }
}
