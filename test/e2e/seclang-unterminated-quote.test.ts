// New user's tour, minor 7: a rule file with an unterminated quote is refused with its file and
// line, as other SecLang errors are, instead of loading as something else. A real daemon, the CLI
// as a real process.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;

beforeAll(async () => {
  d = await newSandbox();
  expect((await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)))).code).toBe(0);
  expect((await d.wafctl('site', 'add', 'rules.test', '--origin', 'http://127.0.0.1:9')).code).toBe(0);
}, 120_000);
afterAll(() => stopAll(), 60_000);

describe('rules set with an unterminated quote', { timeout: 60_000 }, () => {
  it('is refused with file:line, exit 1, and the rules stay as they were', async () => {
    const before = (await d.wafctl('--json', '--site', 'rules.test', 'rules', 'show')).stdout;
    const file = join(d.box.home, 'after.conf');
    await writeFile(file, '# my rules\nSecRule ARGS "@contains evil" "id:1000,phase:2,deny,status:403\n');
    const result = await d.wafctl('--site', 'rules.test', 'rules', 'set', '--after', file);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(new RegExp(`^error: validation_error: .*${file.replace(/[.]/g, '\\.')}:2: unterminated ": the quote opened here is never closed`));
    expect((await d.wafctl('--json', '--site', 'rules.test', 'rules', 'show')).stdout).toBe(before);

    await writeFile(file, '# my rules\nSecRule ARGS "@contains evil" "id:1000,phase:2,deny,status:403"\n');
    const fixed = await d.wafctl('--site', 'rules.test', 'rules', 'set', '--after', file);
    expect(fixed.code, fixed.stderr).toBe(0);
  });
});
