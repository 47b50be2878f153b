// Every registered operator, transformation and action declares, on its registry entry, what the
// rule compiler may assume about it (the speed layers read those properties instead of lists of
// names); operators and transformations also have rows in their behaviour tables. A new entry that
// leaves one out fails here, naming itself. An alias (`pmf`, `normalisepath`) shares its entry, so
// a row under any of the entry's names counts.
import { describe, expect, it } from 'vitest';
import { operators } from '../../../daemon/engine/operators/index.js';
import { transformations } from '../../../daemon/engine/transformations/index.js';
import { actions } from '../../../daemon/engine/actions/index.js';
import { operatorCases } from './operators/operator-cases.js';
import { transformationCases } from './transformations/transformation-cases.js';

/** Each entry once, with every name it is registered under. */
function namesByEntry<T>(registry: ReadonlyMap<string, T>): Map<T, string[]> {
  const out = new Map<T, string[]>();
  for (const [name, entry] of registry) out.set(entry, [...(out.get(entry) ?? []), name]);
  return out;
}

describe('operator registry entries', () => {
  for (const [entry, names] of namesByEntry(operators)) {
    const label = `@${names.join(' / @')}`;
    it(`${label} declares its properties`, () => {
      expect(typeof entry.create, `${label}: create`).toBe('function');
      expect(typeof entry.pure, `${label}: pure (may init-fold run it at load?)`).toBe('boolean');
      expect(typeof entry.effectsOnMatch, `${label}: effectsOnMatch (does a match do more than answer?)`).toBe('boolean');
      expect(entry.requiredBytes === null || typeof entry.requiredBytes === 'function', `${label}: requiredBytes (a function or null)`).toBe(true);
    });
    it(`${label} has rows in operators/operator-cases.ts`, () => {
      expect(names.some((name) => (operatorCases[name]?.length ?? 0) > 0), `${label} has no row in operator-cases.ts`).toBe(true);
    });
  }

  it('has no rows for operators that are not registered', () => {
    for (const name of Object.keys(operatorCases)) expect(operators.has(name), `@${name} has rows but no registry entry`).toBe(true);
  });
});

describe('transformation registry entries', () => {
  for (const [entry, names] of namesByEntry(transformations)) {
    const label = `t:${names.join(' / t:')}`;
    it(`${label} declares its properties`, () => {
      expect(typeof entry.apply, `${label}: apply`).toBe('function');
      expect(entry.triggerBytes === null || (typeof entry.triggerBytes === 'string' && entry.triggerBytes.length > 0),
        `${label}: triggerBytes (a non-empty byte string, or null when it always runs)`).toBe(true);
    });
    it(`${label} has rows in transformations/transformation-cases.ts`, () => {
      expect(names.some((name) => (transformationCases[name]?.length ?? 0) > 0), `${label} has no row in transformation-cases.ts`).toBe(true);
    });
  }

  it('has no rows for transformations that are not registered', () => {
    for (const name of Object.keys(transformationCases)) expect(transformations.has(name), `t:${name} has rows but no registry entry`).toBe(true);
  });
});

describe('action registry entries', () => {
  const REACHES = ['rule', 'transaction', 'flow', 'outside'];
  for (const [name, entry] of actions) {
    it(`${name} declares what it can touch`, () => {
      expect(entry.name, `${name}: registered under its own name`).toBe(name);
      expect(REACHES, `${name}: reach (may init-fold run it on a scratch transaction?)`).toContain(entry.reach);
    });
  }

  it('puts the actions that leave the transaction out of the scratch run', () => {
    for (const name of ['initcol', 'setsid', 'setuid', 'setenv', 'expirevar', 'ctl']) expect(actions.get(name)?.reach, name).toBe('outside');
    for (const name of ['skip', 'skipafter']) expect(actions.get(name)?.reach, name).toBe('flow');
  });
});
