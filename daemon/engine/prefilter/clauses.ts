// A condition (condition.ts) -> at most a few CLAUSES, each an OR of atoms, all of which must hold
// (conjunctive normal form). Dropping a clause of a conjunction, or widening a clause, keeps the
// condition necessary, so every simplification here is sound by construction; what is chosen is
// only a matter of how often the filter will say "skip". Clauses that benign text nearly always
// satisfies (one common letter) are dropped: checking them costs time and skips nothing.
import type { Cond } from './condition.js';

export type Clause = readonly string[];

/** Clauses kept per regex. */
const MAX_CLAUSES = 3;
/** Distributing an OR over ANDs stops at this many clauses. */
const MAX_PRODUCT = 16;
/** A clause estimated to hold on more than this share of benign values is not worth checking. */
const USELESS_ABOVE = 0.6;

/** The clauses worth checking, best first; [] means "no filter", a clause [] means "never matches". */
export function selectClauses(cond: Cond): Clause[] {
  const all = simplify(cnf(cond));
  return all
    .map((clause) => ({ clause, p: clauseLikelihood(clause) }))
    .filter((c) => c.p <= USELESS_ABOVE)
    .sort((a, b) => a.p - b.p)
    .slice(0, MAX_CLAUSES)
    .map((c) => c.clause);
}

function cnf(cond: Cond): Clause[] {
  switch (cond.k) {
    case 'true': return [];
    case 'false': return [[]];
    case 'atom': return [[cond.text]];
    case 'and': return cond.parts.flatMap(cnf);
    case 'or': {
      const parts = cond.parts.map(cnf);
      if (parts.some((p) => p.length === 0)) return [];
      const size = parts.reduce((n, p) => n * p.length, 1);
      // (a AND b) OR c == (a OR c) AND (b OR c); when that grows too large, each side keeps only
      // its most selective clause: a OR c implies nothing stronger than what we claim.
      const sides = size <= MAX_PRODUCT ? parts : parts.map((p) => [best(p)]);
      let product: string[][] = [[]];
      for (const side of sides) product = product.flatMap((acc) => side.map((clause) => [...acc, ...clause]));
      return product;
    }
  }
}

function best(clauses: readonly Clause[]): Clause {
  let chosen = clauses[0];
  let p = clauseLikelihood(chosen);
  for (const c of clauses) {
    const q = clauseLikelihood(c);
    if (q < p) [chosen, p] = [c, q];
  }
  return chosen;
}

/** Dedupes atoms, drops atoms implied by a shorter one in the same clause, drops subsumed clauses. */
function simplify(clauses: readonly Clause[]): Clause[] {
  const reduced = clauses.map((clause) => {
    const sorted = [...new Set(clause)].sort((a, b) => a.length - b.length || (a < b ? -1 : 1));
    const kept: string[] = [];
    for (const s of sorted) if (!kept.some((k) => s.includes(k))) kept.push(s);
    return kept;
  });
  reduced.sort((a, b) => a.length - b.length);
  const out: string[][] = [];
  for (const clause of reduced) {
    // A kept clause whose every atom contains an atom of `clause` implies `clause`.
    if (out.some((k) => k.every((a) => clause.some((b) => a.includes(b))))) continue;
    out.push(clause);
  }
  return out;
}

const COMMON_PUNCTUATION = new Set([...' .,-_/:;=&%+@()\'"!?#*']);

/** A rough chance that a benign value contains `atom`: what clause ordering is based on. */
function atomLikelihood(atom: string): number {
  if (atom.length === 1) {
    const c = atom.charCodeAt(0);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39)) return 0.5;
    return COMMON_PUNCTUATION.has(atom) ? 0.15 : 0.03;
  }
  if (atom.length === 2) return 0.04;
  if (atom.length === 3) return 0.01;
  return 0.002;
}

export function clauseLikelihood(clause: Clause): number {
  let p = 0;
  for (const a of clause) p += atomLikelihood(a);
  return Math.min(1, p);
}
