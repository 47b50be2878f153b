// ctx.api(): which server, key and CA the management API commands use.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../cli/cli-error.js';
import { CommandContext } from '../../cli/context.js';
import { harness } from './fakes.js';

const KEY = 'Q'.repeat(64);

function contextWith(h: ReturnType<typeof harness>, globals: string[] = []) {
  const program = new Command('wafctl').option('--site <d>').option('--server <u>').option('--json');
  program.parse(globals, { from: 'user' });
  return new CommandContext(h.deps, program);
}

function capture(h: ReturnType<typeof harness>) {
  const calls: unknown[] = [];
  h.deps.apiClient = async (options) => {
    calls.push(options);
    return {} as never;
  };
  return calls;
}

describe('CommandContext.api', () => {
  it('without a profile or environment: not_logged_in, exit 4, with the login hint', async () => {
    const h = harness();
    const error = await contextWith(h).api().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CliError);
    expect(error).toMatchObject({ code: 'not_logged_in', exitCode: 4 });
    expect((error as CliError).hint).toContain('wafctl login');
  });

  it('uses the current profile, with its pinned CA', async () => {
    const h = harness();
    await h.deps.profiles.save('a.example', { server: 'https://127.0.0.1:9443', key: KEY, ca: '/d/tls/ca.crt' });
    const calls = capture(h);
    await contextWith(h).api();
    expect(calls).toEqual([{ server: 'https://127.0.0.1:9443', key: KEY, token: undefined, caFile: '/d/tls/ca.crt' }]);
  });

  it('--site picks another profile; --server and WAFCTL_KEY override it', async () => {
    const h = harness({ WAFCTL_KEY: 'E'.repeat(64), WAFCTL_TOKEN: 'tok' });
    await h.deps.profiles.save('a.example', { server: 'https://a:9443', key: KEY });
    await h.deps.profiles.save('b.example', { server: 'https://b:9443', key: KEY });
    const calls = capture(h);
    await contextWith(h, ['--site', 'a.example', '--server', 'https://override:1']).api();
    expect(calls).toEqual([{ server: 'https://override:1', key: 'E'.repeat(64), token: 'tok', caFile: undefined }]);
  });
});
