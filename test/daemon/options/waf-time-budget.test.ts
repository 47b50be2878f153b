// --waf-time-budget-ms (daemon/engine/budget/): a daemon option that reaches every edge worker with
// the other edge settings (edgeHardeningOf is what the clustered edge sends in its init message).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { edgeHardeningOf } from '../../../daemon/options/edge-limits-of.js';
import { RESTART_ONLY } from '../../../daemon/options/option-table.js';
import { OptionsError, parseDaemonArgv, resolveDaemonOptions } from '../../../daemon/options/resolve-options.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wafctl-budget-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const resolveWith = (argv: string[], env: NodeJS.ProcessEnv = {}) => resolveDaemonOptions(parseDaemonArgv(['--data-dir', dir, ...argv]), env, '/cwd');

describe('waf time budget option', () => {
  it('defaults to 40 ms and travels with the edge settings', async () => {
    const options = await resolveWith([]);
    expect(options.wafTimeBudgetMs).toBe(40);
    expect(edgeHardeningOf(options).wafTimeBudgetMs).toBe(40);
  });

  it('comes from the flag, WAFCTL_WAF_TIME_BUDGET_MS or daemon.json, flag first; 0 turns it off', async () => {
    await writeFile(join(dir, 'daemon.json'), JSON.stringify({ waf_time_budget_ms: 100 }));
    expect((await resolveWith([])).wafTimeBudgetMs).toBe(100);
    expect((await resolveWith([], { WAFCTL_WAF_TIME_BUDGET_MS: '0' })).wafTimeBudgetMs).toBe(0);
    expect((await resolveWith(['--waf-time-budget-ms', '25'], { WAFCTL_WAF_TIME_BUDGET_MS: '0' })).wafTimeBudgetMs).toBe(25);
  });

  it.each(['-1', '2.5', 'soon'])('refuses %j naming the flag', async (value) => {
    await expect(resolveWith([`--waf-time-budget-ms=${value}`])).rejects.toThrow(OptionsError);
    await expect(resolveWith([`--waf-time-budget-ms=${value}`])).rejects.toThrow('--waf-time-budget-ms');
  });

  it('takes effect on restart, like the other edge settings', () => {
    expect(RESTART_ONLY.has('wafTimeBudgetMs')).toBe(true);
  });
});
