import { describe, expect, it } from 'vitest';
import { bodyProcessors } from '../../../../daemon/engine/body-processors/index.js';

const parse = (body: string, limits: Partial<{ maxArgs: number; argumentSeparator: string }> = {}) =>
  bodyProcessors.get('URLENCODED')!(Buffer.from(body, 'latin1'), 'application/x-www-form-urlencoded', { maxBytes: 1 << 20, maxArgs: 1000, ...limits });

describe('URLENCODED (ModSecurity parse_arguments)', () => {
  const cases: Array<[body: string, args: Array<[string, string]>]> = [
    ['a=1&b=2', [['a', '1'], ['b', '2']]],
    ['a=1+2&b=%41%42', [['a', '1 2'], ['b', 'AB']]],
    ['a', [['a', '']]],
    ['a=', [['a', '']]],
    ['a&b', [['a', ''], ['b', '']]],
    ['=v', [['', 'v']]],
    ['a=1&&b=2', [['a', '1'], ['', ''], ['b', '2']]],
    ['a=1&', [['a', '1']]],
    ['a=1=2', [['a', '1=2']]],
    ['a%3D=b', [['a=', 'b']]],
    ['a=%zz&b=%4', [['a', '%zz'], ['b', '%4']]],
    ['n%00ame=v%00al', [['n\0ame', 'v\0al']]],
    ['a=%e9', [['a', '\xe9']]],
    ['', []],
  ];
  it.each(cases)('%j', (body, args) => {
    expect(parse(body).args).toEqual(args);
  });
  it('flags invalid %-encodings as URLENCODED_ERROR without failing the body', () => {
    expect(parse('a=%zz').urlencodedError).toBe(true);
    expect(parse('a=%41').urlencodedError).toBe(false);
    expect(parse('a=%zz').error).toBeUndefined();
  });
  it('honours SecArgumentSeparator', () => {
    expect(parse('a=1;b=2&c', { argumentSeparator: ';' }).args).toEqual([['a', '1'], ['b', '2&c']]);
  });
  it('drops arguments past SecArgumentsLimit and marks the body in error', () => {
    const r = parse('a=1&b=2&c=3', { maxArgs: 2 });
    expect(r.args).toEqual([['a', '1'], ['b', '2']]);
    expect(r.error).toMatch(/SecArgumentsLimit/);
  });
});
