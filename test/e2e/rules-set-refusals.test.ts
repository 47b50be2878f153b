// Two SecLang inputs `wafctl rules set` used to take and now refuses with file:line, changing
// nothing: a removal or update that matches no rule (a mistyped id: the exclusion would never
// apply), and SecRuleEngine (it would switch the WAF off while site show says mode on). A real
// daemon (no CRS: the cms group's rules 200100-200999 are what is loaded), the CLI as a real process.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newSandbox, quickStartFlags, stopAll, type E2eDaemon } from './daemon-harness.js';

let d: E2eDaemon;

beforeAll(async () => {
  d = await newSandbox();
  expect((await d.wafctl('daemon', 'start', ...(await quickStartFlags(d.box)))).code).toBe(0);
}, 120_000);
afterAll(() => stopAll(), 60_000);

/** A site of the test's own, and `rules set FLAG FILE` with TEXT in a file of its own. */
async function setRules(site: string, flag: '--before' | '--after', name: string, text: string) {
  const file = join(d.box.home, name);
  await writeFile(file, text);
  return { file, result: await d.wafctl('--site', site, 'rules', 'set', flag, file) };
}

async function addSite(site: string): Promise<string> {
  expect((await d.wafctl('site', 'add', site, '--origin', 'http://127.0.0.1:9', '--no-login')).code).toBe(0);
  return (await d.wafctl('--json', '--site', site, 'rules', 'show')).stdout;
}

describe('rules set refuses what would silently change nothing or switch the WAF', { timeout: 60_000 }, () => {
  it('an update or removal of a rule id that is not loaded: file:line, exit 1, nothing changed', async () => {
    const before = await addSite('typo.test');
    const { file, result } = await setRules('typo.test', '--after', 'typo-after.conf', '# exclusions\nSecRuleUpdateTargetById 999999 "!ARGS:s"\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`error: validation_error: ${file}:2: SecRuleUpdateTargetById 999999 matches no rule defined above it, so it would change nothing; check the id, tag or message (wafctl logs show ID names the rules that matched a request); the Core Rule Set does not run for this site (not installed, or its group is off), so none of its rules can be excluded`);
    const removal = await setRules('typo.test', '--after', 'typo-remove.conf', 'SecRuleRemoveById 999990-999999\n');
    expect(removal.result.code).toBe(1);
    expect(removal.result.stderr).toContain(`${removal.file}:1: SecRuleRemoveById 999990-999999 matches no rule`);
    expect((await d.wafctl('--json', '--site', 'typo.test', 'rules', 'show')).stdout).toBe(before);

    const loaded = await setRules('typo.test', '--after', 'typo-fixed.conf', 'SecRuleUpdateTargetById 200100 "!ARGS:s"\n');
    expect(loaded.result.code, loaded.result.stderr).toBe(0);
  });

  it('in the --before file an exclusion of a rule defined later is refused with where it belongs', async () => {
    await addSite('early.test');
    const { file, result } = await setRules('early.test', '--before', 'early-before.conf', 'SecRuleRemoveById 200100\n');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`${file}:1: SecRuleRemoveById 200100 matches no rule defined above it, so it would change nothing; the --before file is read before the Core Rule Set and the cms rules are defined: exclusions of their rules go in the --after file`);
    const after = await setRules('early.test', '--after', 'early-after.conf', 'SecRuleRemoveById 200100\n');
    expect(after.result.code, after.result.stderr).toBe(0);
  });

  it('SecRuleEngine in a rule file, Off or DetectionOnly: refused, pointing at site set --mode', async () => {
    const before = await addSite('engine.test');
    for (const value of ['Off', 'DetectionOnly']) {
      const { file, result } = await setRules('engine.test', '--after', `engine-${value}.conf`, `SecRule ARGS "@contains x" "id:1000,phase:2,deny"\nSecRuleEngine ${value}\n`);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`error: validation_error: ${file}:2: SecRuleEngine is the site's mode, which a rule file may not set: use \`wafctl site set DOMAIN --mode on|detect|off\``);
    }
    expect((await d.wafctl('--json', '--site', 'engine.test', 'rules', 'show')).stdout).toBe(before);
    expect(JSON.parse(before)).toMatchObject({ mode: 'on' });
  });
});
