// How many CRS 3.3.4 @rx translations V8's linear-time engine accepts, and why the others are
// refused. Only an accepted regex can fall back to that engine after too many backtracks
// (daemon/engine/regex-safety.ts), so this count is the reach of the backtrack bound.
//   npx tsx bench/rx-fuzz/linear-eligibility.ts [--list]
import { setFlagsFromString } from 'node:v8';
import { compilePcre } from '../../daemon/engine/regex/index.js';
import { crsRxRules } from './crs-rx-rules.js';

setFlagsFromString('--enable-experimental-regexp-engine');

function accepts(source: string, flags: string): boolean {
  try {
    new RegExp(source, flags + 'l');
    return true;
  } catch {
    return false;
  }
}

/** The first construct that keeps a translated regex off the linear engine. */
function reason(source: string, flags: string): string {
  if (flags.includes('i') && accepts(source, flags.replace('i', ''))) return 'i flag';
  if (/\(\?<?[=!]/.test(source)) return 'lookaround';
  if (/\\[1-9]/.test(source)) return 'back reference';
  // The linear engine unrolls a counted repeat and refuses one above about 16 (measured: a{63}, x{1,20}).
  if ([...source.matchAll(/\{(\d+)(?:,(\d+))?\}/g)].some((m) => Number(m[2] ?? m[1]) > 16)) return 'counted repeat over 16';
  return 'other';
}

const rules = crsRxRules();
const refused = new Map<string, string[]>();
let iFlag = 0;
for (const rule of rules) {
  const { regex } = compilePcre(rule.pattern);
  if (regex.flags.includes('i')) iFlag++;
  if (accepts(regex.source, regex.flags)) continue;
  const why = reason(regex.source, regex.flags);
  refused.set(why, [...(refused.get(why) ?? []), rule.ruleId]);
}
const total = [...refused.values()].reduce((n, ids) => n + ids.length, 0);
console.log(`${rules.length} CRS @rx regexes: ${rules.length - total} accepted by the linear engine, ${total} refused; ${iFlag} use the i flag`);
for (const [why, ids] of refused) console.log(`  ${why}: ${ids.length}${process.argv.includes('--list') || ids.length < 10 ? ` (${ids.join(', ')})` : ''}`);
