import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { Waf } from '../../../daemon/engine/waf.js';
import { SecLangError } from '../../../daemon/engine/seclang/errors.js';
import { testRegistries } from './helpers/test-registries.js';

function load(text: string) {
  return () => Waf.load([{ text, name: 'bad.conf' }], { registries: testRegistries });
}

describe('load errors name file:line and the reason', () => {
  it.each([
    ['SecFoo On', /bad.conf:1: unknown directive SecFoo/],
    ['\nSecRule ARGS "@nope x" "id:1"', /bad.conf:2: unknown operator @nope/],
    ['SecRule ARGS "@rx x" "id:1,t:nope"', /unknown transformation "nope"/],
    ['SecRule ARGS "@rx x" "id:1,frobnicate"', /unknown action "frobnicate"/],
    ['SecRule NOPE "@rx x" "id:1"', /unknown variable NOPE/],
    ['SecRule ARGS "@rx (" "id:1"', /bad.conf:1: @rx: /],
    ['SecRule ARGS "@rx x" "phase:2"', /rule has no id/],
    ['SecAction "id:1"\nSecAction "id:1"', /bad.conf:2: duplicate rule id 1/],
    ['SecRule ARGS "@rx x" "id:1,chain"', /chain has no following rule/],
    ['SecAction "id:1,skipAfter:NOWHERE"', /skipAfter: no marker/],
    ['SecAction "id:1,ctl:bogus=1"', /unknown ctl option/],
    ['SecAction "id:1,phase:9"', /phase must be/],
    ['SecRule ARGS:/(/ "@rx x" "id:1"', /bad selector regex/],
    ['SecRuleEngine Maybe', /expects On, Off or DetectionOnly/],
    ['SecAction "id:1,msg:\'%{nope.x}\'"', /unknown variable NOPE in macro/],
  ])('%s', (text, reason) => {
    expect(load(text)).toThrow(SecLangError);
    expect(load(text)).toThrow(reason);
  });

  it('follows Include with globs relative to the including file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'seclang-'));
    mkdirSync(join(dir, 'rules'));
    writeFileSync(join(dir, 'main.conf'), 'Include rules/*.conf\n');
    writeFileSync(join(dir, 'rules', 'a.conf'), 'SecAction "id:1,phase:1,pass"\n');
    writeFileSync(join(dir, 'rules', 'b.conf'), '\nSecAction "id:1,phase:1,pass"\n');
    expect(() => Waf.load([{ file: join(dir, 'main.conf') }], { registries: testRegistries })).toThrow(
      `${join(dir, 'rules', 'b.conf')}:2: duplicate rule id 1`,
    );
  });

  it('reports a missing include', () => {
    expect(load('Include /nonexistent/x.conf')).toThrow(/bad.conf:1: Include: cannot read/);
  });
});
