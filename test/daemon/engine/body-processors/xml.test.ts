import { describe, expect, it } from 'vitest';
import { bodyProcessors } from '../../../../daemon/engine/body-processors/index.js';

const parse = (body: string) => bodyProcessors.get('XML')!(Buffer.from(body, 'latin1'), 'text/xml', { maxBytes: 1 << 20, maxArgs: 1000 });

describe('XML', () => {
  it('answers XML:/* with all the text and XML://@* with every attribute value', () => {
    const r = parse('<?xml version="1.0"?><!-- c --><a x="1"><b y=\'2\'>hi &amp; <![CDATA[<raw>]]></b>tail<c/></a>');
    expect(r.error).toBeUndefined();
    expect(r.xml!.select('/*')).toEqual(['hi & <raw>tail']);
    expect(r.xml!.select('//@*')).toEqual(['1', '2']);
    expect(r.xml!.select('//*')).toEqual(['hi & <raw>tail', 'hi & <raw>', '']);
    expect(r.xml!.select('/a/b')).toEqual([]);
    expect(r.args).toEqual([]);
  });
  it('decodes character references to UTF-8 bytes and converts ISO-8859-1 documents', () => {
    expect(parse('<a>&#233;&#x41;</a>').xml!.select('/*')).toEqual(['\xc3\xa9A']);
    expect(parse('<?xml version="1.0" encoding="ISO-8859-1"?><a>\xe9</a>').xml!.select('/*')).toEqual(['\xc3\xa9']);
  });
  it('skips a DOCTYPE without expanding anything from it', () => {
    const r = parse('<!DOCTYPE a [<!ENTITY x SYSTEM "file:///etc/passwd">]><a>ok</a>');
    expect(r.xml!.select('/*')).toEqual(['ok']);
  });
  const bad = [
    '<a><b></a></b>', '<a>', 'text', '<a></a><b></b>', '<a x=1></a>', '<a>&nope;</a>', '<a>\xff</a>', '<a x="1" x="2"/>', '', '<a><!-- -- --></a>',
  ];
  it.each(bad)('rejects %j as a request body error', (body) => {
    expect(parse(body).error).toMatch(/^XML parser error: /);
  });
});
