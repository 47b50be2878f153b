import { describe, expect, it } from 'vitest';
import { MIGRATIONS, migrateConfig } from '../../../../daemon/store/config/migrations.js';

describe('migrateConfig', () => {
  const table = {
    1: (doc: Record<string, unknown>) => ({ ...doc, a: 'added in 2' }),
    2: (doc: Record<string, unknown>) => ({ ...doc, b: `${String(doc.a)} then 3` }),
  };

  it('runs every step from the file version to the target, in order', () => {
    const result = migrateConfig({ schema_version: 1 }, table, 3);
    expect(result).toEqual({ ok: true, from: 1, migrated: true, doc: { schema_version: 3, a: 'added in 2', b: 'added in 2 then 3' } });
  });

  it('leaves a current document alone', () => {
    expect(migrateConfig({ schema_version: 3, x: 1 }, table, 3)).toEqual({ ok: true, from: 3, migrated: false, doc: { schema_version: 3, x: 1 } });
  });

  it('refuses missing, bad, future and unreachable versions', () => {
    expect(migrateConfig([], table, 3)).toMatchObject({ ok: false, problem: 'is not a JSON object' });
    expect(migrateConfig({}, table, 3)).toMatchObject({ ok: false, problem: expect.stringContaining('schema_version') });
    expect(migrateConfig({ schema_version: '1' }, table, 3)).toMatchObject({ ok: false });
    expect(migrateConfig({ schema_version: 4 }, table, 3)).toMatchObject({ ok: false, problem: expect.stringContaining('newer wafctl') });
    expect(migrateConfig({ schema_version: 0 }, table, 3)).toMatchObject({ ok: false, problem: expect.stringContaining('no migration from version 0') });
  });

  it('the shipped table is consistent with the current version', () => {
    expect(Object.keys(MIGRATIONS)).toEqual([]);
    expect(migrateConfig({ schema_version: 1 })).toMatchObject({ ok: true, migrated: false });
  });
});
