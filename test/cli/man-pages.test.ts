// The man pages cannot drift from the command tree: every command and every long option of
// commander must appear in man/, on the page of its command group.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../cli/program.js';
import { harness } from './fakes.js';

const MAN_DIR = join(import.meta.dirname, '..', '..', 'man');

/** Roff source as a reader sees it: escapes and font changes removed. */
function readable(file: string): string {
  return readFileSync(join(MAN_DIR, file), 'utf8')
    .replace(/\\f[BIRP]/g, '')
    .replace(/\\-/g, '-')
    .replace(/\\\(\w\w/g, ' ');
}

function walk(command: Command, path: string[] = []): Array<{ path: string[]; command: Command }> {
  return command.commands.flatMap((sub) => {
    const subPath = [...path, sub.name()];
    return [{ path: subPath, command: sub }, ...walk(sub, subPath)];
  });
}

const longOptions = (command: Command) => command.options.map((o) => o.long).filter((l): l is string => Boolean(l));

describe('man pages', () => {
  const program = buildProgram(harness().deps);

  it('wafctl.1 names every global option and every command group', () => {
    const page = readable('wafctl.1');
    for (const option of [...longOptions(program), '--help']) expect(page, option).toContain(option);
    for (const group of program.commands) expect(page, group.name()).toContain(`wafctl ${group.name()}`);
  });

  it('each command has its group page, naming it and each of its long options', () => {
    for (const { path, command } of walk(program)) {
      const file = `wafctl-${path[0]}.1`;
      const page = readable(file);
      expect(page, `${file}: wafctl ${path.join(' ')}`).toContain(`wafctl ${path.join(' ')}`);
      for (const option of longOptions(command)) expect(page, `${file}: ${path.join(' ')} ${option}`).toContain(option);
    }
  });

  it('every page is roff with a title line and a NAME section', () => {
    const pages = readdirSync(MAN_DIR).filter((f) => /\.[1-8]$/.test(f));
    expect(pages).toEqual(expect.arrayContaining(['wafctl.1', 'wafctl-daemon.1', 'wafctl-site.1', 'wafctl-token.1', 'wafctl-account.1', 'wafctl-login.1', 'wafctl.conf.5']));
    for (const page of pages) {
      const text = readFileSync(join(MAN_DIR, page), 'utf8');
      expect(text, page).toMatch(/^\.TH /);
      expect(text, page).toContain('.SH NAME');
    }
  });

  it("package.json's man field installs every page, and only pages that exist", () => {
    const pkg = JSON.parse(readFileSync(join(MAN_DIR, '..', 'package.json'), 'utf8')) as { man: string[] };
    const pages = readdirSync(MAN_DIR).filter((f) => /\.[1-8]$/.test(f)).map((f) => `./man/${f}`);
    expect([...pkg.man].sort()).toEqual(pages.sort());
  });
});
