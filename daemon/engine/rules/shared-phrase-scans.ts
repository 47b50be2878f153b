// Rules whose @pm / @pmFromFile lists read the same values through the same transformations
// share one scan (operators/phrase-union.ts): CRS's response rules run four lists over the same
// RESPONSE_BODY with t:none, up to 512 KB each, and this makes that one pass instead of four.
// Sound whatever the grouping, since what a list finds in a value depends on nothing else; the
// grouping only decides which rules are likely to ask about the same string. Rules of different
// paranoia levels (CRS's `paranoia-level/N` tag) are kept apart: at PL1 the PL2 rule is skipped,
// and scanning for its list too (933151's 1,264 PHP function names beside 933150's 44) would
// only make the PL1 rule's scan dearer.
import type { Rule } from './rule.js';
import { isPhraseEvaluate, sharedPhraseOperator } from '../operators/phrase-operator.js';
import type { PhraseMatcher } from '../operators/phrase-matcher.js';
import { PhraseUnion } from '../operators/phrase-union.js';

/** Unions built for earlier rule sets (every site and reload builds its own rules over the same
 *  cached data-file matchers), by their members. */
const unions = new Map<string, PhraseUnion>();
const UNION_CACHE_LIMIT = 64;
const matcherIds = new WeakMap<PhraseMatcher, number>();
let nextMatcherId = 1;

/** Gives rules that read the same values with phrase operators one shared scan (sets rule.evaluate). */
export function sharePhraseScans(rules: readonly Rule[]): void {
  const groups = new Map<string, Array<{ rule: Rule; matcher: PhraseMatcher }>>();
  for (const rule of rules) {
    const evaluate = rule.evaluate;
    if (!isPhraseEvaluate(evaluate) || rule.targets.length === 0) continue;
    const paranoia = rule.chainStarter.tags.find((tag) => tag.startsWith('paranoia-level/')) ?? '';
    const key = `${rule.phase} ${paranoia} ${rule.transform?.id ?? -1} ${rule.targets.map((t) => t.text).join('|')}`;
    const entry = { rule, matcher: evaluate.phraseMatcher };
    const group = groups.get(key);
    if (group === undefined) groups.set(key, [entry]);
    else group.push(entry);
  }
  for (const group of groups.values()) {
    const members = [...new Set(group.map((entry) => entry.matcher))];
    if (members.length < 2) continue;
    const union = unionOf(members);
    if (union === undefined) continue;
    for (const { rule, matcher } of group) rule.evaluate = sharedPhraseOperator(union, members.indexOf(matcher), matcher);
  }
}

function unionOf(members: readonly PhraseMatcher[]): PhraseUnion | undefined {
  const key = members.map(idOf).join(',');
  let union = unions.get(key);
  if (union !== undefined) return union;
  try {
    union = new PhraseUnion(members);
  } catch {
    return undefined; // more distinct bytes than classes: each list keeps its own scan
  }
  if (unions.size >= UNION_CACHE_LIMIT) unions.delete(unions.keys().next().value!);
  unions.set(key, union);
  return union;
}

function idOf(matcher: PhraseMatcher): number {
  let id = matcherIds.get(matcher);
  if (id === undefined) {
    id = nextMatcherId++;
    matcherIds.set(matcher, id);
  }
  return id;
}
