// Reads libinjection's sample corpora (corpora/*.txt, from its data/ folder) the way its `reader`
// tool does: one URL-encoded input per line, right-trimmed; empty lines and lines starting with
// '#' skipped; '+' and %XX decoded to bytes, giving byte strings (char codes 0-255).
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS_DIR = join(dirname(fileURLToPath(import.meta.url)), 'corpora');

function hexDigit(c) {
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  const l = c | 0x20;
  return l >= 0x61 && l <= 0x66 ? l - 0x61 + 10 : 256;
}

/** modp_url_decode: '+' is a space, %XX a byte; a malformed '%' stays as it is. */
export function urlDecode(s) {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c === 0x2b) {
      out += ' ';
      i += 1;
    } else if (c === 0x25 && i + 2 < s.length && ((hexDigit(s.charCodeAt(i + 1)) << 4) | hexDigit(s.charCodeAt(i + 2))) < 256) {
      out += String.fromCharCode((hexDigit(s.charCodeAt(i + 1)) << 4) | hexDigit(s.charCodeAt(i + 2)));
      i += 3;
    } else {
      out += s[i];
      i += 1;
    }
  }
  return out;
}

/** [{ line, raw, input }] for one corpus file. */
export function readCorpus(file) {
  const text = readFileSync(join(CORPUS_DIR, file), 'latin1');
  const lines = [];
  text.split('\n').forEach((rawLine, i) => {
    const raw = rawLine.replace(/[ \t\r\n]+$/, '');
    if (raw.length === 0 || raw.startsWith('#')) return;
    lines.push({ line: i + 1, raw, input: urlDecode(raw) });
  });
  return lines;
}

export function corpusFiles(prefix) {
  return readdirSync(CORPUS_DIR).filter((f) => f.startsWith(prefix) && f.endsWith('.txt')).sort();
}
