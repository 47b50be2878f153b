// Loads the FTW 1.x YAML regression tests (CRS v3.3.4) from the fixtures folder.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { load as loadYaml } from 'js-yaml';
import type { FtwInput } from './ftw-request.js';

export interface FtwOutput {
  status?: number | number[];
  log_contains?: string;
  no_log_contains?: string;
  expect_error?: boolean;
  response_contains?: string;
}

export interface FtwStage {
  input: FtwInput;
  output: FtwOutput;
}

export interface FtwTest {
  title: string;
  /** e.g. REQUEST-920-PROTOCOL-ENFORCEMENT/920100.yaml */
  file: string;
  stages: FtwStage[];
}

interface YamlFile {
  meta?: { enabled?: boolean };
  tests?: Array<{ test_title: string; enabled?: boolean; stages: Array<{ stage: FtwStage }> }>;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : e.name.endsWith('.yaml') ? [join(dir, e.name)] : []))
    .sort();
}

/** Every enabled test, in file order. */
export function loadFtwTests(root: string): FtwTest[] {
  const tests: FtwTest[] = [];
  for (const path of yamlFiles(root)) {
    const doc = loadYaml(readFileSync(path, 'utf8')) as YamlFile;
    if (doc.meta?.enabled === false) continue;
    for (const t of doc.tests ?? []) {
      if (t.enabled === false) continue;
      tests.push({ title: String(t.test_title), file: relative(root, path), stages: t.stages.map((s) => s.stage) });
    }
  }
  return tests;
}
