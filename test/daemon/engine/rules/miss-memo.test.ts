// Operator misses remembered across transactions (rules/miss-memo.ts): a value met again in a
// later transaction of the same rule set skips the rules known to miss on it; matches, macros,
// a new rule set, a full memo and a budget stopped mid-phase all leave verdicts as without it.
// Most tests admit a value on its first sighting (`sightings: 0`), to test what the memo does
// with a value it holds; admission on the second sighting (rules/sightings.ts) has its own tests.
import { describe, it, expect } from 'vitest';
import { Waf } from '../../../../daemon/engine/waf.js';
import { DEFAULT_MISS_MEMO_LIMITS, MissMemo, type MissRow } from '../../../../daemon/engine/rules/miss-memo.js';
import { Sightings } from '../../../../daemon/engine/rules/sightings.js';
import { EngineBudgetExceeded } from '../../../../daemon/engine/budget/time-budget.js';
import type { OperatorFactory } from '../../../../daemon/engine/operators/types.js';
import type { MissMemoLimits } from '../../../../daemon/engine/rules/miss-memo.js';
import { testOperator, testRegistries } from '../helpers/test-registries.js';
import { request } from '../helpers/request.js';
import { counting } from '../helpers/counting-operator.js';

const ADMIT_AT_ONCE: MissMemoLimits = { ...DEFAULT_MISS_MEMO_LIMITS, sightings: 0 };

function load(text: string, registries: typeof testRegistries, missMemo: MissMemoLimits = ADMIT_AT_ONCE): Waf {
  return Waf.load([{ text: `SecRuleEngine DetectionOnly\n${text}` }], { registries, missMemo });
}

function run(waf: Waf, uri: string): { ids: number[]; tx: Map<string, string> } {
  const t = waf.newTransaction(request(uri));
  t.processRequest();
  return { ids: t.matches.map((m) => m.id), tx: new Map(t.tx.entries().map((e) => [e.key, e.value])) };
}

describe('operator misses remembered across transactions', () => {
  it('a value seen again skips the rules that missed on it; matches run every time, with their actions', () => {
    const { calls, registries } = counting();
    const waf = load(`SecRule ARGS "@counted zzz" "id:1,phase:1,pass,log"
SecRule ARGS "@counted ell" "id:2,phase:1,pass,log,capture,setvar:tx.hits=+1,setvar:tx.seen=%{tx.0}"`, registries);
    const first = run(waf, '/?a=hello&b=world');
    expect(calls).toEqual(['hello', 'world', 'hello', 'world']);
    calls.length = 0;
    const second = run(waf, '/?a=hello&b=world');
    // Rule 1 missed both values, rule 2 missed "world": only the match runs again.
    expect(calls).toEqual(['hello']);
    expect(second).toEqual(first);
    expect(second.tx.get('hits')).toBe('1');
    expect(second.tx.get('seen')).toBe('hello');
    // The same value under another name, or in another variable's rule: the value is the key.
    calls.length = 0;
    run(waf, '/?other=world');
    expect(calls).toEqual([]);
  });

  it('a negated rule remembers its non-hits (the operator matched) unless a match has side effects', () => {
    const { calls, registries } = counting();
    // Rule 1: "!@counted ell": hello is a non-hit (remembered), world a hit (logged every time).
    // Rule 2: the same with capture: a match sets TX:0, so nothing is remembered.
    const waf = load(`SecRule ARGS "!@counted ell" "id:1,phase:1,pass,log,setvar:tx.hits=+1"
SecRule ARGS "!@counted ell" "id:2,phase:1,pass,log,capture,setvar:tx.captured=%{tx.0}"`, registries);
    const first = run(waf, '/?a=hello&b=world');
    expect(first.ids).toEqual([1, 2]);
    expect(calls).toEqual(['hello', 'world', 'hello', 'world']);
    calls.length = 0;
    const second = run(waf, '/?a=hello&b=world');
    expect(calls).toEqual(['world', 'hello', 'world']);
    expect(second).toEqual(first);
    expect(second.tx.get('hits')).toBe('1');
    // Rule 1 alone reads only a known non-hit now: skipped whole (rules/miss-groups.ts).
    calls.length = 0;
    expect(run(waf, '/?a=hello').ids).toEqual([]);
    expect(calls).toEqual(['hello']);
  });

  it('the bit is per rule and transformation: another rule still evaluates the value', () => {
    const { calls, registries } = counting();
    const waf = load(`SecRule ARGS "@counted 5" "id:1,phase:1,pass,log"
SecRule ARGS "@counted 5" "id:2,phase:1,pass,log,t:length"`, registries);
    expect(run(waf, '/?a=hello').ids).toEqual([2]);
    calls.length = 0;
    expect(run(waf, '/?a=hello').ids).toEqual([2]);
    expect(calls).toEqual(['5']);
  });

  it('a rule whose operator reads a macro is never skipped (its answer follows TX)', () => {
    const { calls, registries } = counting();
    const waf = load(`SecRule ARGS:n "@rx ^(.*)$" "id:1,phase:1,pass,nolog,capture,setvar:tx.needle=%{tx.1}"
SecRule ARGS:v "@counted %{tx.needle}" "id:2,phase:1,pass,log"`, registries);
    expect(run(waf, '/?n=zzz&v=hello').ids).toEqual([]);
    expect(run(waf, '/?n=ell&v=hello').ids).toEqual([2]);
    expect(calls).toEqual(['hello', 'hello']);
  });

  it('a new rule set (a reload) starts with an empty memo: the same bit of another rule is not trusted', () => {
    const { calls, registries } = counting();
    const before = load('SecRule ARGS "@counted zzz" "id:1,phase:1,pass,log"', registries);
    expect(run(before, '/?a=hello').ids).toEqual([]);
    expect(run(before, '/?a=hello').ids).toEqual([]);
    expect(calls).toEqual(['hello']);
    const reloaded = load('SecRule ARGS "@counted ell" "id:1,phase:1,pass,log"', registries);
    expect(run(reloaded, '/?a=hello').ids).toEqual([1]);
    expect(before.ruleSet.missMemo).not.toBe(reloaded.ruleSet.missMemo);
  });

  it('a full memo starts over: bounded by values and by bytes, verdicts unchanged throughout', () => {
    const { calls, registries } = counting();
    const waf = load(`SecRule ARGS "@counted zzz" "id:1,phase:1,pass,log"
SecRule ARGS "@counted 7" "id:2,phase:1,pass,log"`, registries, { limit: 8, byteLimit: 64, maxValueLength: 32, sightings: 0 });
    const memo = waf.ruleSet.missMemo;
    for (let i = 0; i < 200; i++) {
      const value = `v${i}`;
      expect(run(waf, `/?a=${value}`).ids).toEqual(value.includes('7') ? [2] : []);
      expect(memo.size).toBeLessThanOrEqual(8);
    }
    expect(memo.restarts).toBeGreaterThan(20);
    // Bytes: a few long values fill it before the count does.
    for (let i = 0; i < 20; i++) {
      run(waf, `/?a=${'x'.repeat(30)}${i}`);
      expect(memo.size * 30).toBeLessThanOrEqual(64 + 32);
    }
    // A value over maxValueLength is not kept: evaluated again every time, still judged alike.
    const long = 'y'.repeat(40);
    calls.length = 0;
    expect(run(waf, `/?a=${long}`).ids).toEqual([]);
    expect(run(waf, `/?a=${long}`).ids).toEqual([]);
    expect(calls.filter((c) => c === long)).toHaveLength(4);
  });

  it('a phase stopped by the time budget remembers nothing it did not finish', () => {
    const calls: string[] = [];
    let slow = true;
    // Runs execs on a 256-byte subject (each makes the budget read the clock) until the budget
    // throws mid-operator, before it returns (or 5 s pass: then the test fails below).
    const slowMiss: OperatorFactory = () => (input, runtime) => {
      calls.push(input);
      const subject = 'x'.repeat(256);
      const until = performance.now() + 5_000;
      while (slow && performance.now() < until) runtime.budget?.exec(/x*y/, subject);
      return false;
    };
    const operators = new Map(testRegistries.operators);
    operators.set('slowmiss', testOperator(slowMiss, { pure: false }));
    const waf = Waf.load([{ text: `SecRuleEngine DetectionOnly
SecRule ARGS "@slowmiss x" "id:1,phase:1,pass,log"
SecRule ARGS "@contains ell" "id:2,phase:1,pass,log"` }], { registries: { ...testRegistries, operators } });
    const tx = waf.newTransaction(request('/?a=hello'));
    tx.setTimeBudget(20);
    expect(() => tx.processRequest()).toThrow(EngineBudgetExceeded);
    slow = false;
    // The interrupted operator is called again for the value, and the rule after it still matches.
    expect(run(waf, '/?a=hello').ids).toEqual([2]);
    expect(calls).toEqual(['hello', 'hello']);
    expect(run(waf, '/?a=hello').ids).toEqual([2]);
    expect(calls).toEqual(['hello', 'hello']);
  });
});

describe('rules skipped whole when every value they read is known to miss (rules/miss-groups.ts)', () => {
  const rules = `SecRule ARGS|REQUEST_COOKIES "@counted zzz" "id:1,phase:1,pass,log"
SecRule ARGS|REQUEST_COOKIES "!@counted zzz" "id:2,phase:1,pass,log,setvar:tx.negated=+1"
SecRule ARGS|&ARGS "@counted 9" "id:3,phase:1,pass,log"`;
  const withCookie = (uri: string, cookie: string) => request(uri, { headers: [['Host', 'example.test'], ['Cookie', cookie]] });

  it('are not evaluated once their values are known; a new value in any slot brings them back', () => {
    const { calls, registries } = counting();
    const waf = load(rules, registries);
    const judge = (uri: string, cookie: string) => {
      const t = waf.newTransaction(withCookie(uri, cookie));
      t.processRequest();
      return { ids: t.matches.map((m) => m.id), negated: t.tx.get('negated') };
    };
    const first = judge('/?a=1&b=2', 's=abc');
    expect(first).toEqual({ ids: [2, 2, 2], negated: '3' });
    calls.length = 0;
    // Rule 1: all three values known: skipped. Rule 2 (negated: the operator missing is its hit,
    // and only non-hits are remembered) calls the operator on every value. Rule 3 reads a count:
    // evaluated ("2").
    expect(judge('/?a=1&b=2', 's=abc')).toEqual(first);
    expect(calls).toEqual(['1', '2', 'abc', '2']);
    calls.length = 0;
    // A new cookie value: rule 1 is evaluated on the new value only.
    expect(judge('/?a=1&b=2', 's=new').ids).toEqual([2, 2, 2]);
    expect(calls).toEqual(['new', '1', '2', 'new', '2']);
  });

  it('interleaved transactions (phase 1 of one, a whole other, phase 2 of the first) keep their own summaries', () => {
    const { registries } = counting();
    const waf = load(`SecRule ARGS|REQUEST_COOKIES "@counted zzz" "id:1,phase:1,pass,log"
SecRule ARGS|REQUEST_COOKIES "@counted zzz" "id:2,phase:2,pass,log"`, registries);
    const known = () => waf.newTransaction(withCookie('/?a=1', 's=abc'));
    const warm = known();
    warm.processRequest();
    // A reads the same cookie and a matching argument; B only known values (its phases find
    // every group known to miss and store that for their own stamps).
    const a = waf.newTransaction(withCookie('/?a=zzz', 's=abc'));
    a.processRequestHeaders();
    const b = known();
    b.processRequest();
    a.processRequestBody();
    expect(b.matches.map((m) => m.id)).toEqual([]);
    expect(a.matches.map((m) => m.id)).toEqual([1, 2]);
  });

  it('rules over the same slots are skipped one by one, each when it is known to miss', () => {
    const { calls, registries } = counting();
    const waf = load(`SecRule ARGS "@counted zzz" "id:11,phase:1,pass,log"
SecRule ARGS "@counted hello" "id:12,phase:1,pass,log"
SecRule ARGS "@counted qqq" "id:13,phase:1,pass,log"
SecRule REQUEST_COOKIES|ARGS "@counted zzz" "id:14,phase:1,pass,log"`, registries);
    const judge = (uri: string) => {
      const t = waf.newTransaction(withCookie(uri, 's=abc'));
      t.processRequest();
      return t.matches.map((m) => m.id);
    };
    expect(judge('/?a=hello')).toEqual([12]);
    calls.length = 0;
    // 11 and 13 are known to miss "hello", 12 matched it (never remembered): 11 and 13 are
    // skipped, 12 runs; 14 (other slots) is known too.
    expect(judge('/?a=hello')).toEqual([12]);
    expect(calls).toEqual(['hello']);
    judge('/?a=fine');
    calls.length = 0;
    expect(judge('/?a=fine')).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('are skipped when their slots are empty, and still match a new value that matches', () => {
    const { calls, registries } = counting();
    const waf = load(rules, registries);
    waf.newTransaction(withCookie('/', 's=abc')).processRequest();
    calls.length = 0;
    const t = waf.newTransaction(withCookie('/?q=zzz', 's=abc'));
    t.processRequest();
    expect(t.matches.map((m) => m.id)).toEqual([1, 2]);
  });
});

describe('MissMemo', () => {
  const row = (): MissRow => ({ table: new Int32Array(0), row: -1 });

  it('gives a value the same row until it starts over, and never hands a row to another value', () => {
    const memo = new MissMemo(2, { limit: 3, byteLimit: 1000, maxValueLength: 10, sightings: 0 });
    const a = row();
    expect(memo.find('alpha', a)).toBe(true);
    a.table[a.row] |= 1;
    const again = row();
    memo.find('alpha', again);
    expect(again.table).toBe(a.table);
    expect(again.row).toBe(a.row);
    const rows = ['b', 'c', 'd'].map((v) => {
      const r = row();
      memo.find(v, r);
      return r;
    });
    // 'd' started a new table: the row 'alpha' holds keeps its bits, nobody else writes there.
    expect(rows[2].table).not.toBe(a.table);
    expect(a.table[a.row]).toBe(1);
    const fresh = row();
    memo.find('alpha', fresh);
    expect(fresh.table[fresh.row]).toBe(0);
  });

  it('does not keep long values, nor anything with limit 0', () => {
    const out = row();
    expect(new MissMemo(2, { limit: 4, byteLimit: 1000, maxValueLength: 3, sightings: 0 }).find('abcd', out)).toBe(false);
    expect(new MissMemo(2, { limit: 0, byteLimit: 1000, maxValueLength: 3, sightings: 0 }).find('a', out)).toBe(false);
    expect(out.row).toBe(-1);
  });
});

describe('admission on the second sighting (rules/sightings.ts)', () => {
  const row = (): MissRow => ({ table: new Int32Array(0), row: -1 });

  it('keeps a value only when it comes back; until then its bits live for the transaction', () => {
    const { calls, registries } = counting();
    const waf = load('SecRule ARGS "@counted zzz" "id:1,phase:1,pass,log"', registries, DEFAULT_MISS_MEMO_LIMITS);
    const memo = waf.ruleSet.missMemo;
    expect(run(waf, '/?a=hello').ids).toEqual([]);
    expect(calls).toEqual(['hello']);
    expect(memo.size).toBe(0);
    // Second sighting: admitted, learned again (a new row); third: found, not evaluated.
    expect(run(waf, '/?a=hello').ids).toEqual([]);
    expect(memo.size).toBe(1);
    expect(run(waf, '/?a=hello').ids).toEqual([]);
    expect(calls).toEqual(['hello', 'hello']);
    // Values met once never enter the memo, and do not push out the one kept.
    for (let i = 0; i < 500; i++) expect(run(waf, `/?a=zzz${i}`).ids).toEqual([1]);
    expect(memo.size).toBe(1);
    expect(memo.restarts).toBe(0);
    calls.length = 0;
    run(waf, '/?a=hello');
    expect(calls).toEqual([]);
  });

  it('a bounded filter of hashes: a value is seen before only after it was noted', () => {
    const seen = new Sightings(256);
    expect(seen.seenBefore('alpha')).toBe(false);
    expect(seen.seenBefore('alpha')).toBe(true);
    expect(seen.seenBefore('alphb')).toBe(false);
    // Long values are sampled (ends and spread), so a change at the ends or far apart is seen.
    const long = 'x'.repeat(5000);
    expect(seen.seenBefore(long)).toBe(false);
    expect(seen.seenBefore(`${long.slice(1)}y`)).toBe(false);
    expect(seen.seenBefore(`y${long.slice(1)}`)).toBe(false);
    expect(seen.seenBefore(long)).toBe(true);
    // Values noted together are all remembered (no slot one pushes another out of) ...
    const many = Array.from({ length: 60 }, (_, i) => `v${i}`);
    for (const v of many) seen.seenBefore(v);
    expect(many.filter((v) => seen.seenBefore(v))).toEqual(many);
    // ... until `capacity` values were noted: then it starts over (bounded; admitted later).
    for (let i = 0; i < 256; i++) seen.seenBefore(`w${i}`);
    expect(seen.seenBefore('alpha')).toBe(false);
  });

  it('MissMemo.find: false on the first sighting, a row on the second', () => {
    const memo = new MissMemo(2, { limit: 3, byteLimit: 1000, maxValueLength: 10, sightings: 16 });
    const out = row();
    expect(memo.find('alpha', out)).toBe(false);
    expect(out.row).toBe(-1);
    expect(memo.find('alpha', out)).toBe(true);
    expect(memo.size).toBe(1);
  });
});
