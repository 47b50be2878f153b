// Loads go-ftw 2 YAML regression tests (CRS 4: `rule_id`, `tests[].test_id`, `stages[].input/output`).
// The YAML is read with the failsafe schema, so every scalar stays the text the file holds: go-ftw
// decodes header values into Go strings (`1.0` stays "1.0"), which js-yaml's core schema would turn
// into the number 1. Booleans and numbers the runner needs are converted here, field by field.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { FAILSAFE_SCHEMA, load as loadYaml } from 'js-yaml';

export interface GoFtwInput {
  method?: string;
  uri?: string;
  version?: string;
  headers: Array<[string, string]>;
  data?: string;
  encodedRequest?: string;
  autocompleteHeaders: boolean;
}

export interface GoFtwOutput {
  status?: number;
  expectError: boolean;
  retryOnce: boolean;
  isolated: boolean;
  expectIds: number[];
  noExpectIds: number[];
  matchRegex?: string;
  noMatchRegex?: string;
}

export interface GoFtwStage {
  input: GoFtwInput;
  output: GoFtwOutput;
}

export interface GoFtwTest {
  /** `<rule_id>-<test_id>`, the name go-ftw reports and CRS's anchors use. */
  title: string;
  /** e.g. REQUEST-920-PROTOCOL-ENFORCEMENT/920100.yaml */
  file: string;
  stages: GoFtwStage[];
}

type Raw = Record<string, unknown>;

const isTrue = (v: unknown) => typeof v === 'string' && /^(true|True|TRUE)$/.test(v);
const optional = (v: unknown) => (typeof v === 'string' ? v : undefined);
const ids = (v: unknown) => (Array.isArray(v) ? v.map(Number) : []);

function parseInput(raw: Raw): GoFtwInput {
  const headers = Object.entries((raw.headers ?? {}) as Record<string, string>).map(([k, v]): [string, string] => [k, String(v)]);
  return {
    method: optional(raw.method),
    uri: optional(raw.uri),
    version: optional(raw.version),
    headers,
    data: optional(raw.data),
    encodedRequest: optional(raw.encoded_request),
    // go-ftw's default: complete the headers unless the test says false.
    autocompleteHeaders: raw.autocomplete_headers === undefined || isTrue(raw.autocomplete_headers),
  };
}

function parseOutput(raw: Raw): GoFtwOutput {
  const log = (raw.log ?? {}) as Raw;
  return {
    status: raw.status === undefined || raw.status === '' ? undefined : Number(raw.status),
    expectError: isTrue(raw.expect_error),
    retryOnce: isTrue(raw.retry_once),
    isolated: isTrue(raw.isolated),
    expectIds: ids(log.expect_ids),
    noExpectIds: ids(log.no_expect_ids),
    matchRegex: optional(log.match_regex) || undefined,
    noMatchRegex: optional(log.no_match_regex) || undefined,
  };
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? yamlFiles(join(dir, e.name)) : /\.ya?ml$/.test(e.name) ? [join(dir, e.name)] : []))
    .sort();
}

/** Every test under `root`, in file order. */
export function loadGoFtwTests(root: string): GoFtwTest[] {
  const tests: GoFtwTest[] = [];
  for (const path of yamlFiles(root)) {
    const doc = loadYaml(readFileSync(path, 'utf8'), { schema: FAILSAFE_SCHEMA }) as Raw;
    for (const t of (doc.tests ?? []) as Raw[]) {
      const stages = (t.stages as Raw[]).map((s) => ({ input: parseInput((s.input ?? {}) as Raw), output: parseOutput((s.output ?? {}) as Raw) }));
      tests.push({ title: `${String(doc.rule_id)}-${String(t.test_id)}`, file: relative(root, path), stages });
    }
  }
  return tests;
}
