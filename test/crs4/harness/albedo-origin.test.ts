// The albedo origin on a real socket: plain 200s, and /reflect answering as its JSON body says.
import { describe, it, expect, afterAll } from 'vitest';
import { startAlbedoOrigin } from './albedo-origin.js';
import { detectContentType } from './go-content-sniff.js';

const origin = await startAlbedoOrigin();
afterAll(() => origin.close());

describe('albedo origin', () => {
  it('answers any other request with an empty 200', async () => {
    const res = await fetch(`${origin.url}/anything?x=1`, { method: 'PUT', body: 'x' });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('');
  });

  it('reflects status, headers and a plain or base64 body', async () => {
    const res = await fetch(`${origin.url}/reflect`, { method: 'POST', body: JSON.stringify({ status: 503, headers: { 'X-Leak': 'yes' }, body: '<html> oops' }) });
    expect(res.status).toBe(503);
    expect(res.headers.get('x-leak')).toBe('yes');
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe('<html> oops');
    const encoded = await fetch(`${origin.url}/reflect`, { method: 'POST', body: JSON.stringify({ encodedBody: Buffer.from('hi').toString('base64') }) });
    expect(encoded.status).toBe(200);
    expect(encoded.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await encoded.text()).toBe('hi');
  });

  it('refuses invalid JSON and out-of-range statuses with 400', async () => {
    expect((await fetch(`${origin.url}/reflect`, { method: 'POST', body: '{' })).status).toBe(400);
    expect((await fetch(`${origin.url}/reflect`, { method: 'POST', body: '{"status":700}' })).status).toBe(400);
  });
});

describe("detectContentType (Go's sniffing)", () => {
  it('tells html, xml, pdf, text and binary apart', () => {
    expect(detectContentType(Buffer.from('  <!DOCTYPE html>'))).toBe('text/html; charset=utf-8');
    expect(detectContentType(Buffer.from('<?xml version="1.0"?>'))).toBe('text/xml; charset=utf-8');
    expect(detectContentType(Buffer.from('%PDF-1.4'))).toBe('application/pdf');
    expect(detectContentType(Buffer.from('<?php echo 1; ?>'))).toBe('text/plain; charset=utf-8');
    expect(detectContentType(Buffer.from([0x01, 0x02]))).toBe('application/octet-stream');
  });
});
