// The body processors' limits and time-budget checkpoints (security review M2): each stops parsing where
// a limit is reached (`stoppedAt`), and each calls the budget's checkpoint as it goes, so that a
// checkpoint that throws (the budget spent) ends the parse. The multipart parser's one-step data
// runs (multipart-parser.ts, skipData) give exactly what buffer-by-buffer parsing gave.
import { describe, expect, it } from 'vitest';
import { bodyProcessors } from '../../../../daemon/engine/body-processors/index.js';
import type { BodyLimits } from '../../../../daemon/engine/body-processors/types.js';
import { ARGUMENT_LIMIT_MESSAGE } from '../../../../daemon/engine/body-processors/argument-list.js';
import { TICKS_PER_CHECK } from '../../../../daemon/engine/body-processors/parse-clock.js';

const CT = 'multipart/form-data; boundary=XyZ';
const run = (name: string, body: string, contentType: string, limits: Partial<BodyLimits> = {}) =>
  bodyProcessors.get(name)!(Buffer.from(body, 'latin1'), contentType, { maxBytes: 1 << 30, maxArgs: 1000, ...limits });
const multipart = (body: string, limits: Partial<BodyLimits> = {}) => run('MULTIPART', body, CT, limits);
const field = (name: string, value: string) => `--XyZ\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
const file = (name: string, data: string) => `--XyZ\r\nContent-Disposition: form-data; name="${name}"; filename="${name}.txt"\r\n\r\n${data}\r\n`;
const END = '--XyZ--\r\n';

describe('MULTIPART limits', () => {
  it('stops at the first part past the limit (fields and files count), keeping the parts before it', () => {
    const body = field('a', '1') + file('f', 'x') + field('b', '2') + field('c', '3') + END;
    const r = multipart(body, { maxArgs: 3 });
    expect(r.error).toBe(ARGUMENT_LIMIT_MESSAGE);
    expect(r.args).toEqual([['a', '1'], ['b', '2']]);
    expect(r.files.map((f) => f.fieldName)).toEqual(['f']);
    expect(r.multipart!.flags.MULTIPART_STRICT_ERROR).toBe(1);
    expect(r.stoppedAt).toBe(body.indexOf('--XyZ\r\nContent-Disposition: form-data; name="c"'));
    expect(multipart(body, { maxArgs: 4 }).error).toBeUndefined();
  });

  it('counts part headers and field values against maxNoFilesBytes, not file data', () => {
    const header = 'Content-Disposition: form-data; name="a"\r\n\r\n';
    const body = field('a', 'v'.repeat(100)) + END;
    const exact = header.length + 100;
    expect(multipart(body, { maxNoFilesBytes: exact }).error).toBeUndefined();
    const over = multipart(body, { maxNoFilesBytes: exact - 1 });
    expect(over.noFilesOverLimit).toBe(true);
    expect(over.error).toBe(`Request body no files data length is larger than the configured limit (${exact - 1}).`);
    expect(multipart(file('a', 'v'.repeat(100_000)) + END, { maxNoFilesBytes: 1000 }).error).toBeUndefined();
    // Values taken in one step (many short lines) are counted the same.
    const lines = field('a', 'v\r\n'.repeat(50_000)) + END;
    expect(multipart(lines, { maxNoFilesBytes: 100_000 }).noFilesOverLimit).toBe(true);
    expect(multipart(lines, { maxNoFilesBytes: 200_000 }).args[0][1]).toBe('v\r\n'.repeat(50_000));
  });
});

describe('MULTIPART data taken in runs, as ModSecurity\'s buffers would give it', () => {
  it('sizes a file of 300,000 short lines exactly (the last CRLF belongs to the boundary)', () => {
    const data = 'line\r\n'.repeat(300_000) + 'end';
    const r = multipart(file('f', data) + END);
    expect(r.error).toBeUndefined();
    expect(r.files[0].size).toBe(data.length);
  });

  it('keeps a field value of long and short lines, LF and CRLF, byte for byte', () => {
    const value = ('a'.repeat(5000) + '\n' + 'b\r\n'.repeat(30_000) + 'c'.repeat(70_000) + '\r\n\r\n').repeat(3);
    const r = multipart(field('v', value) + END);
    expect(r.args).toEqual([['v', value]]);
    expect(r.multipart!.flags.MULTIPART_STRICT_ERROR).toBe(0);
  });

  it('still sees the boundary marker and dash lines deep inside long data', () => {
    const filler = 'x\r\n'.repeat(40_000);
    expect(multipart(file('f', filler + 'y--XyZ\r\n' + filler) + END).multipart!.flags.MULTIPART_UNMATCHED_BOUNDARY).toBe(1);
    expect(multipart(file('f', filler + '--other\r\n' + filler) + END).multipart!.flags.MULTIPART_UNMATCHED_BOUNDARY).toBe(1);
    expect(multipart(file('f', filler + '--XyZW\r\n' + filler) + END).error).toMatch(/Invalid boundary: --XyZW/);
    expect(multipart(file('f', filler + '-x\r\n' + filler) + END).multipart!.flags.MULTIPART_UNMATCHED_BOUNDARY).toBe(0);
    const second = multipart(file('f', filler) + field('after', 'v') + END);
    expect(second.args).toEqual([['after', 'v']]);
    expect(second.files[0].size).toBe(filler.length);
  });
});

describe('checkpoints: every processor calls the time budget\'s checkpoint while it parses', () => {
  class Spent extends Error {}
  const cases: Array<[string, string, string]> = [
    ['MULTIPART', file('f', '--other\n'.repeat(20_000)) + END, CT],
    ['URLENCODED', 'a=1&'.repeat(900), 'application/x-www-form-urlencoded'],
    ['JSON', '[' + '1,'.repeat(900) + '1]', 'application/json'],
    ['XML', '<r>' + '<e/>'.repeat(20_000) + '</r>', 'text/xml'],
  ];
  it.each(cases)('%s: called as the parse goes, and a throwing checkpoint ends the parse', (name, body, ct) => {
    let calls = 0;
    run(name, body, ct, { checkpoint: () => { calls++; } });
    expect(calls).toBeGreaterThanOrEqual(Math.floor(900 / TICKS_PER_CHECK));
    expect(() => run(name, body, ct, { checkpoint: () => { throw new Spent(); } })).toThrow(Spent);
  });
});

describe('nesting limits', () => {
  it('XML: 256 levels parse, 257 are an error (libxml2 without XML_PARSE_HUGE)', () => {
    const nest = (n: number) => '<a>'.repeat(n) + '</a>'.repeat(n);
    expect(run('XML', nest(256), 'text/xml').error).toBeUndefined();
    expect(run('XML', nest(257), 'text/xml').error).toMatch(/^XML parser error: Excessive depth in document: 256/);
  });

  it('JSON: the depth limit stops the parse where it is reached', () => {
    const r = run('JSON', '['.repeat(10_000) + ']'.repeat(10_000), 'application/json', { maxJsonDepth: 512 });
    expect(r.error).toBe('JSON parsing error: JSON depth limit exceeded');
    expect(r.stoppedAt).toBe(513);
  });
});
