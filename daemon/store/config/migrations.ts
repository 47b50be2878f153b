import { CONFIG_SCHEMA_VERSION } from '../../../shared/schemas/config.js';

// Migrations of config.json, one step per schema version: MIGRATIONS[n] turns a version-n document
// into a version-(n+1) document. Steps work on plain JSON (the old shape has no zod schema any more)
// and the result is validated by the current schema afterwards. Version 1 is the first released
// shape, so the table is empty; the runner is tested with its own table.

export type RawConfig = Record<string, unknown>;
export type MigrationStep = (doc: RawConfig) => RawConfig;
export type MigrationTable = Readonly<Record<number, MigrationStep>>;

export const MIGRATIONS: MigrationTable = {};

export type MigrationResult =
  | { ok: true; doc: RawConfig; from: number; migrated: boolean }
  | { ok: false; problem: string };

export function migrateConfig(doc: unknown, table: MigrationTable = MIGRATIONS, target = CONFIG_SCHEMA_VERSION): MigrationResult {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return { ok: false, problem: 'is not a JSON object' };
  const version = (doc as RawConfig).schema_version;
  if (typeof version !== 'number' || !Number.isInteger(version) || version < 0) {
    return { ok: false, problem: 'schema_version: must be a non-negative integer' };
  }
  if (version > target) {
    return { ok: false, problem: `schema_version: ${version} was written by a newer wafctl (this one reads up to ${target})` };
  }
  let current = doc as RawConfig;
  for (let v = version; v < target; v += 1) {
    const step = table[v];
    if (!step) return { ok: false, problem: `schema_version: no migration from version ${v}` };
    current = { ...step(current), schema_version: v + 1 };
  }
  return { ok: true, doc: current, from: version, migrated: version !== target };
}
