import { describe, expect, it } from 'vitest';
import { bodyProcessors } from '../../../../daemon/engine/body-processors/index.js';

const parse = (body: string, limits: Partial<{ maxArgs: number; maxJsonDepth: number }> = {}) =>
  bodyProcessors.get('JSON')!(Buffer.from(body, 'latin1'), 'application/json', { maxBytes: 1 << 20, maxArgs: 1000, ...limits });

describe('JSON (argument names as ModSecurity 2.9 msc_json.c gives them)', () => {
  const cases: Array<[body: string, args: Array<[string, string]>]> = [
    ['{"a":"1","b":2}', [['a', '1'], ['b', '2']]],
    ['{"a":{"b":{"c":"x"}}}', [['a.b.c', 'x']]],
    ['{"a":[1,2]}', [['a.a', '1'], ['a.a', '2']]],
    ['{"a":[1],"b":"x"}', [['a.a', '1'], ['b', 'x']]],
    ['{"a":{"b":1},"c":2}', [['a.b', '1'], ['c', '2']]],
    ['[1,"x"]', [['array.array', '1'], ['array.array', 'x']]],
    ['[{"a":1}]', [['array.array.a', '1']]],
    ['{"t":true,"f":false,"n":null}', [['t', 'true'], ['f', 'false'], ['n', '']]],
    ['{"e":1.5e+3,"neg":-0}', [['e', '1.5e+3'], ['neg', '-0']]],
    ['"top"', [['', 'top']]],
    ['{"s":"\\u00e9\\n\\"\\/"}', [['s', '\xc3\xa9\n"/']]],
    ['{"s":"\\ud83d\\ude00"}', [['s', '\xf0\x9f\x98\x80']]],
    ['{"raw":"\xc3\xa9"}', [['raw', '\xc3\xa9']]],
    ['{}', []],
    ['   ', []],
  ];
  it.each(cases)('%j', (body, args) => {
    const r = parse(body);
    expect(r.error).toBeUndefined();
    expect(r.args).toEqual(args);
  });

  const bad: Array<[string, RegExp]> = [
    ['{"a":1', /premature EOF/],
    ['{"a":1}x', /trailing garbage/],
    ["{'a':1}", /invalid object key/],
    ['{"a":01}', /after key and value/],
    ['{"a":"\xff"}', /invalid bytes in UTF8/],
    ['{"a":"x\ny"}', /invalid character inside string/],
    ['[1,]', /invalid char/],
    ['// c\n{}', /invalid char/],
  ];
  it.each(bad)('rejects %j', (body, message) => {
    const r = parse(body);
    expect(r.error).toMatch(/^JSON parsing error: /);
    expect(r.error).toMatch(message);
  });

  it('stops at SecRequestBodyJsonDepthLimit', () => {
    expect(parse('{"a":{"b":{"c":1}}}', { maxJsonDepth: 1 }).error).toBe('JSON parsing error: JSON depth limit exceeded');
    expect(parse('{"a":{"b":{"c":1}}}', { maxJsonDepth: 2 }).error).toBeUndefined();
    const deep = '['.repeat(20000) + ']'.repeat(20000);
    expect(parse(deep).error).toBe('JSON parsing error: JSON depth limit exceeded');
  });
  it('stops at SecArgumentsLimit', () => {
    const r = parse('[1,2,3]', { maxArgs: 2 });
    expect(r.args).toHaveLength(2);
    expect(r.error).toMatch(/SecArgumentsLimit/);
  });
});
