// The completion scripts are generated from the commander tree: each names every command path,
// bash's actually completes (run in a real bash), and all three parse in their shell if present.
import { execFileSync, spawnSync } from 'node:child_process';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../../../cli/program.js';
import { runCli } from '../../../../cli/run.js';
import { harness } from '../../fakes.js';

function walk(command: Command, path: string[] = []): string[][] {
  return command.commands.flatMap((sub) => [[...path, sub.name()], ...walk(sub, [...path, sub.name()])]);
}

async function script(shell: string): Promise<string> {
  const h = harness();
  expect(await runCli(['completion', shell], h.deps)).toBe(0);
  return h.io.out();
}

const hasShell = (name: string) => spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;

/** What bash's completion function offers for `words` (the last one being completed). */
function bashComplete(source: string, words: string[]): string[] {
  const program = `${source}\nCOMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _wafctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['--norc', '-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('wafctl completion', () => {
  const paths = walk(buildProgram(harness().deps));

  it.each(['bash', 'zsh', 'fish'])('the %s script names every command and subcommand', async (shell) => {
    const text = await script(shell);
    expect(paths.length).toBeGreaterThan(20);
    for (const path of paths) {
      expect(text, path.join(' ')).toContain(path[path.length - 1]);
      if (path.length > 1) expect(text, path.join('/')).toContain(path.join('/'));
    }
    for (const option of ['--json', '--search', '--follow', '--tui', '--period', '--origin']) expect(text, option).toContain(option.slice(2));
  });

  it('bash completes commands, subcommands, options and option values', async () => {
    const source = await script('bash');
    expect(bashComplete(source, ['wafctl', 'lo'])).toEqual(['login', 'logs']);
    expect(bashComplete(source, ['wafctl', 'site', 'di'])).toEqual(['disable']);
    expect(bashComplete(source, ['wafctl', '--json', 'ip-rules', ''])).toEqual(expect.arrayContaining(['list', 'add', 'remove', '--json']));
    expect(bashComplete(source, ['wafctl', 'logs', '--f'])).toEqual(['--follow']);
    expect(bashComplete(source, ['wafctl', 'analytics', '--period', ''])).toEqual(['24h', '7d', '30d', '90d']);
    expect(bashComplete(source, ['wafctl', 'analytics', '--top', ''])).toEqual(['ips', 'uris', 'rules', 'countries', 'statuses']);
    expect(bashComplete(source, ['wafctl', 'analytics', '--l'])).toEqual(['--limit']);
    expect(bashComplete(source, ['wafctl', 'completion', ''])).toEqual(expect.arrayContaining(['bash', 'zsh', 'fish']));
    // `site` typed as a --site value is not a command path: `logs` still completes its options.
    expect(bashComplete(source, ['wafctl', 'logs', '--sea'])).toEqual(['--search']);
  });

  it('each script parses in its shell (bash always; zsh and fish when installed here)', async () => {
    expect(spawnSync('bash', ['-n'], { input: await script('bash') }).status).toBe(0);
    // zsh and fish are not part of the machine image; CI installs neither, so only bash is required.
    if (hasShell('zsh')) expect(spawnSync('zsh', ['-n'], { input: await script('zsh') }).status).toBe(0);
    if (hasShell('fish')) expect(spawnSync('fish', ['-n'], { input: await script('fish') }).status).toBe(0);
  });

  it('an unknown shell is a usage error naming the choices', async () => {
    const h = harness();
    expect(await runCli(['completion', 'tcsh'], h.deps)).toBe(2);
    expect(h.io.err()).toMatch(/error: usage_error: .*bash, zsh, fish/);
    expect(h.io.out()).toBe('');
  });
});
