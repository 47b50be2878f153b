// The top offenders of bench/rx-fuzz (engine safety). Since caseless letters are emitted
// as classes (regex/emit.ts), V8 hands both to its linear-time engine after too many backtracks
// (daemon/engine/regex-safety.ts): the cost no longer explodes, but it is linear with a large
// constant (~10-30 us a byte for these), so a long pathological value still holds one exec far past
// 50 ms. Each case is the rule's worst shape at 64 KiB, where the cost is 10-40x the target, a
// margin far wider than load noise. Marked it.fails: the regex alone is not bounded; the engine's
// per-transaction budget is what bounds a request (test/daemon/engine/time-budget.test.ts).
import { setFlagsFromString } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { compilePcre } from '../../daemon/engine/regex/index.js';
import { enableRegexBacktrackFallback } from '../../daemon/engine/regex-safety.js';
import { crsRxRules } from '../../bench/rx-fuzz/crs-rx-rules.js';

const LIMIT_MS = 50;
const OFFENDERS: Array<{ rule: string; unit: string; end: string; bytes: number }> = [
  { rule: '942370', unit: '--', end: '', bytes: 65536 },
  { rule: '941160', unit: '<<', end: '!', bytes: 65536 },
];

enableRegexBacktrackFallback();
const rules = crsRxRules();

function cpuMs(run: () => void): number {
  const c0 = process.cpuUsage();
  run();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / 1000;
}

describe('CRS 3.3.4 @rx worst cases through the engine\'s compile path', () => {
  it("the offenders are real CRS rules whose regex V8's linear-time engine accepts", () => {
    setFlagsFromString('--enable-experimental-regexp-engine'); // only so that `l` can be asked about
    for (const o of OFFENDERS) {
      const rule = rules.find((r) => r.ruleId === o.rule);
      expect(rule, o.rule).toBeDefined();
      const { regex } = compilePcre(rule!.pattern);
      expect(() => new RegExp(regex.source, `${regex.flags}l`)).not.toThrow();
    }
  });

  for (const o of OFFENDERS) {
    it.fails(`${o.rule}: ${JSON.stringify(o.unit)} x ${o.bytes / o.unit.length}${o.end ? ` + ${JSON.stringify(o.end)}` : ''} stays under ${LIMIT_MS} ms CPU`, () => {
      const { regex } = compilePcre(rules.find((r) => r.ruleId === o.rule)!.pattern);
      const value = o.unit.repeat(o.bytes / o.unit.length) + o.end;
      expect(cpuMs(() => regex.exec(value))).toBeLessThan(LIMIT_MS);
    });
  }
});
