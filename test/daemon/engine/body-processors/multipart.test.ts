import { describe, expect, it } from 'vitest';
import { bodyProcessors } from '../../../../daemon/engine/body-processors/index.js';

const CT = 'multipart/form-data; boundary=XyZ';
const parse = (body: string, contentType = CT, maxFiles?: number) =>
  bodyProcessors.get('MULTIPART')!(Buffer.from(body, 'latin1'), contentType, { maxBytes: 1 << 20, maxArgs: 1000, maxFiles });
const crlf = (lines: string[]) => lines.join('\r\n');

const simple = crlf([
  '--XyZ',
  'Content-Disposition: form-data; name="a"',
  '',
  'one',
  '--XyZ',
  'Content-Disposition: form-data; name="f"; filename="x.txt"',
  'Content-Type: text/plain',
  '',
  'file body',
  'line 2',
  '--XyZ--',
  '',
]);

const flagsOf = (body: string, ct = CT) => parse(body, ct).multipart!.flags;
const raised = (flags: Record<string, number>) => Object.entries(flags).filter(([, v]) => v).map(([k]) => k).sort();

describe('MULTIPART: parts', () => {
  it('gives form fields as ARGS and file parts as FILES, with no flags on a clean body', () => {
    const r = parse(simple);
    expect(r.error).toBeUndefined();
    expect(r.args).toEqual([['a', 'one']]);
    expect(r.files).toEqual([{ fieldName: 'f', fileName: 'x.txt', size: 'file body\r\nline 2'.length, contentType: 'text/plain' }]);
    expect(raised(r.multipart!.flags)).toEqual([]);
    expect(r.multipart!.names).toEqual(['a', 'f']);
    expect(r.multipart!.fileNames).toEqual(['x.txt']);
    expect(r.multipart!.partHeaders).toEqual([
      ['a', 'Content-Disposition: form-data; name="a"'],
      ['f', 'Content-Disposition: form-data; name="f"; filename="x.txt"'],
      ['f', 'Content-Type: text/plain'],
    ]);
  });
  it('keeps inner line breaks and only drops the one before the boundary', () => {
    const r = parse(crlf(['--XyZ', 'Content-Disposition: form-data; name="a"', '', 'x', '', 'y', '', '--XyZ--']));
    expect(r.args).toEqual([['a', 'x\r\n\r\ny\r\n']]);
  });
  it('accepts a final boundary without a trailing newline', () => {
    const r = parse(crlf(['--XyZ', 'Content-Disposition: form-data; name="a"', '', 'v', '--XyZ--']));
    expect(r.error).toBeUndefined();
    expect(r.args).toEqual([['a', 'v']]);
  });
  it('splits lines longer than ModSecurity\'s 4 KiB buffer without losing bytes', () => {
    const long = 'x'.repeat(10000);
    const r = parse(crlf(['--XyZ', 'Content-Disposition: form-data; name="a"', '', long, '--XyZ--', '']));
    expect(r.args).toEqual([['a', long]]);
  });
  it('handles a file name with single quotes as invalid quoting', () => {
    const r = parse(crlf(['--XyZ', "Content-Disposition: form-data; name='a'", '', 'v', '--XyZ--', '']));
    expect(r.args).toEqual([['a', 'v']]);
    expect(r.multipart!.flags.MULTIPART_INVALID_QUOTING).toBe(1);
    expect(r.multipart!.flags.MULTIPART_STRICT_ERROR).toBe(1);
  });
  it("a ' inside a double-quoted file name is a character, not a quoting error (as ModSecurity 2.9.6+)", () => {
    const part = (disposition: string) => parse(crlf(['--XyZ', `Content-Disposition: form-data; ${disposition}`, '', 'v', '--XyZ--', '']));
    const quoted = part(`name="f"; filename="O'Brien's cv.php"`);
    expect(quoted.files.map((f) => f.fileName)).toEqual(["O'Brien's cv.php"]);
    expect(quoted.multipart!.flags.MULTIPART_INVALID_QUOTING).toBe(0);
    expect(quoted.multipart!.flags.MULTIPART_STRICT_ERROR).toBe(0);
    // Unquoted it still is one: the trick the flag is there for.
    expect(part(`name="f"; filename=O'Brien.php`).multipart!.flags.MULTIPART_INVALID_QUOTING).toBe(1);
    expect(part(`name=a'b`).multipart!.flags.MULTIPART_INVALID_QUOTING).toBe(1);
  });
});

describe('MULTIPART: flags', () => {
  const cases: Array<[title: string, body: string, contentType: string, flags: string[]]> = [
    ['quoted boundary', simple, 'multipart/form-data; boundary="XyZ"', ['MULTIPART_BOUNDARY_QUOTED', 'MULTIPART_STRICT_ERROR']],
    ['whitespace around =', simple, 'multipart/form-data; boundary =XyZ', ['MULTIPART_BOUNDARY_WHITESPACE', 'MULTIPART_STRICT_ERROR']],
    ['missing semicolon', simple, 'multipart/form-data boundary=XyZ', ['MULTIPART_MISSING_SEMICOLON', 'MULTIPART_STRICT_ERROR']],
    ['data before the first boundary', 'preamble\r\n' + simple, CT, ['MULTIPART_DATA_BEFORE', 'MULTIPART_STRICT_ERROR']],
    ['data after the last boundary', simple + 'epilogue', CT, ['MULTIPART_DATA_AFTER', 'MULTIPART_STRICT_ERROR']],
    ['LF line endings', simple.replace(/\r\n/g, '\n'), CT, ['MULTIPART_LF_LINE', 'MULTIPART_STRICT_ERROR']],
    ['mixed line endings', simple.replace('Content-Type: text/plain\r\n', 'Content-Type: text/plain\n'), CT,
      ['MULTIPART_CRLF_LF_LINES', 'MULTIPART_LF_LINE', 'MULTIPART_STRICT_ERROR']],
    ['header folding', simple.replace('Content-Type: text/plain', 'Content-Type: text/plain;\r\n charset=x'), CT,
      ['MULTIPART_HEADER_FOLDING', 'MULTIPART_STRICT_ERROR']],
    ['invalid header folding', simple.replace('Content-Type: text/plain', 'Content-Type: text/plain;\r\n\x0bcharset=x'), CT,
      ['MULTIPART_HEADER_FOLDING', 'MULTIPART_INVALID_HEADER_FOLDING', 'MULTIPART_STRICT_ERROR']],
    ['something like a boundary in data', simple.replace('line 2', 'x--XyZ'), CT, ['MULTIPART_UNMATCHED_BOUNDARY']],
    ['a dash line that is not the boundary', simple.replace('line 2', '--other'), CT, ['MULTIPART_UNMATCHED_BOUNDARY']],
    ['a part without headers', crlf(['--XyZ', '--XyZ', 'Content-Disposition: form-data; name="a"', '', 'v', '--XyZ--', '']), CT,
      ['MULTIPART_INVALID_PART', 'MULTIPART_STRICT_ERROR']],
  ];
  it.each(cases)('%s', (_title, body, ct, flags) => {
    const r = parse(body, ct);
    expect(r.error).toBeUndefined();
    expect(raised(r.multipart!.flags)).toEqual([...flags].sort());
  });
  it('raises MULTIPART_FILE_LIMIT_EXCEEDED past SecUploadFileLimit', () => {
    const r = parse(simple.replace('--XyZ--', crlf(['--XyZ', 'Content-Disposition: form-data; name="g"; filename="y"', '', 'z', '--XyZ--'])), CT, 1);
    expect(r.multipart!.flags.MULTIPART_FILE_LIMIT_EXCEEDED).toBe(1);
    expect(r.files).toHaveLength(2);
  });
});

describe('MULTIPART: processor errors (REQBODY_PROCESSOR_ERROR)', () => {
  const cases: Array<[title: string, body: string, contentType: string, message: RegExp]> = [
    ['no boundary in C-T', simple, 'multipart/form-data', /Boundary not found in C-T/],
    ['Boundary in another case', simple, 'multipart/form-data; BOUNDARY=XyZ', /case sensitivity/],
    ['two boundary parameters', simple, 'multipart/form-data; boundary=XyZ; boundary=Q', /Multiple boundary parameters/],
    ['partial quoting', simple, 'multipart/form-data; boundary="XyZ', /\(quote\)/],
    ['bad boundary characters', simple, 'multipart/form-data; boundary=a:b', /\(characters\)/],
    ['not form-data', simple, 'multipart/mixed; boundary=XyZ', /Invalid MIME type/],
    ['final boundary missing', simple.replace('--XyZ--\r\n', ''), CT, /Final boundary missing/],
    ['no boundaries at all', 'just text', CT, /No boundaries found/],
    ['missing Content-Disposition', crlf(['--XyZ', 'Content-Type: text/plain', '', 'v', '--XyZ--']), CT, /missing Content-Disposition/],
    ['bad Content-Disposition', crlf(['--XyZ', 'Content-Disposition: form-data; name="a"; foo="b"', '', 'v', '--XyZ--']), CT, /Invalid Content-Disposition header \(-11\)/],
    ['duplicate name', crlf(['--XyZ', 'Content-Disposition: form-data; name="a"; name="b"', '', 'v', '--XyZ--']), CT, /\(-14\)/],
    ['no name', crlf(['--XyZ', 'Content-Disposition: form-data; filename="a"', '', 'v', '--XyZ--']), CT, /missing name field/],
    ['header without colon', crlf(['--XyZ', 'Content-Disposition form-data', '', 'v', '--XyZ--']), CT, /colon missing/],
    ['duplicate part header', crlf(['--XyZ', 'Content-Disposition: form-data; name="a"', 'content-disposition: form-data; name="b"', '', 'v', '--XyZ--']), CT, /Duplicate part header/],
    ['NUL in part headers', crlf(['--XyZ', 'Content-Disposition: form-data; name="a\0"', '', 'v', '--XyZ--']), CT, /Nul byte/],
    ['folding with no header', crlf(['--XyZ', ' folded', '', 'v', '--XyZ--']), CT, /folding error/],
    ['junk after a boundary', crlf(['--XyZjunk', 'x']).replace('--XyZjunk', '--XyZ junk'), CT, /Invalid boundary: --XyZ junk/],
    ['quoted boundary used quoted in the body', simple.replace(/--XyZ/g, '--"XyZ"'), 'multipart/form-data; boundary="XyZ"', /Invalid boundary \(quotes\)/],
    ['whitespace before the boundary', simple.replace('--XyZ\r\nContent-Disposition: form-data; name="f"', '-- XyZ\r\nContent-Disposition: form-data; name="f"'), CT, /Invalid boundary \(whitespace\)/],
    ['a line that extends the boundary', simple.replace('line 2', '--XyZW'), CT, /Invalid boundary: --XyZW/],
  ];
  it.each(cases)('%s', (_title, body, ct, message) => {
    const r = parse(body, ct);
    expect(r.error).toMatch(message);
    expect(r.args).toEqual([]);
    expect(r.multipart!.flags.MULTIPART_STRICT_ERROR).toBe(1);
  });
});
