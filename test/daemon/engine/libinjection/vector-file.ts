/**
 * Reads libinjection's test vector files (--TEST-- / --INPUT-- / --EXPECTED-- sections) the way
 * its C test driver does: bytes as latin1, sections as whole lines, input and expected output
 * right-trimmed of space, \t, \n and \r.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const VECTOR_DIR = join(dirname(fileURLToPath(import.meta.url)), 'vectors');

export interface Vector {
  file: string;
  title: string;
  input: string;
  expected: string;
}

export function rtrim(s: string): string {
  let end = s.length;
  while (end > 0) {
    const c = s.charCodeAt(end - 1);
    if (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) end--;
    else break;
  }
  return s.substring(0, end);
}

export function readVector(file: string): Vector {
  const text = readFileSync(join(VECTOR_DIR, file), 'latin1');
  const sections = ['', '', ''];
  let section = -1;
  const markers = ['--TEST--', '--INPUT--', '--EXPECTED--'];
  for (const line of text.split(/(?<=\n)/)) {
    if (section < 2 && line === markers[section + 1] + '\n') {
      section++;
    } else if (section >= 0) {
      sections[section] += line;
    } else {
      throw new Error(`${file}: text before --TEST--`);
    }
  }
  if (section !== 2) throw new Error(`${file}: missing sections`);
  return { file, title: rtrim(sections[0]), input: rtrim(sections[1]), expected: rtrim(sections[2]) };
}

export function vectorFiles(prefix: string): string[] {
  return readdirSync(VECTOR_DIR).filter((f) => f.startsWith(prefix) && f.endsWith('.txt')).sort();
}
