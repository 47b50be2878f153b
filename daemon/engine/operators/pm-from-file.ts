// @pmFromFile / @pmf: @pm with phrases from files (paths relative to the rule file's directory,
// several separated by spaces). One phrase per line, whitespace-trimmed; blank lines and lines
// starting with '#' are skipped. Quirk kept from ModSecurity: a one-byte line is skipped too.
import { readFileSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { OperatorDefinition, OperatorFactory } from './types.js';
import { parsePmContent } from './pm-content.js';
import { PhraseMatcher } from './phrase-matcher.js';
import { phraseOperator } from './phrase-operator.js';

// Rule sets load the same data file from several rules (and again on every reload): matchers are
// shared while the file list and each file's size and mtime are unchanged.
const matcherCache = new Map<string, PhraseMatcher>();
const MATCHER_CACHE_LIMIT = 128;

export const pmFromFile: OperatorFactory = (param, ctx) => {
  const files = param.split(/[ \t\n\v\f\r]+/).filter((f) => f.length > 0);
  if (files.length === 0) throw new Error("missing parameter for operator 'pmFromFile'");
  const paths = files.map((file) => {
    if (/^https?:\/\//i.test(file)) throw new Error(`pmFromFile: remote phrase lists are not supported (${file})`);
    return isAbsolute(file) ? file : resolve(ctx.ruleDir, file);
  });
  const key = paths.map((path) => {
    try {
      const st = statSync(path);
      return `${path}\0${st.size}\0${st.mtimeMs}`;
    } catch (err) {
      throw new Error(`could not open phrase file "${path}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
  }).join('\n');
  let matcher = matcherCache.get(key);
  if (!matcher) {
    matcher = new PhraseMatcher(paths.flatMap(readPhrases));
    if (matcherCache.size >= MATCHER_CACHE_LIMIT) matcherCache.delete(matcherCache.keys().next().value!);
    matcherCache.set(key, matcher);
  }
  return phraseOperator(matcher);
};

function readPhrases(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'latin1');
  } catch (err) {
    throw new Error(`could not open phrase file "${path}": ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const phrases: string[] = [];
  for (const line of splitLines(text)) {
    const phrase = phraseFromLine(line);
    if (phrase !== null) phrases.push(phrase);
  }
  return phrases;
}

/** Lines with their newline kept, as apr_file_gets() returns them. */
function splitLines(text: string): string[] {
  const lines = text.split(/(?<=\n)/);
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function phraseFromLine(line: string): string | null {
  // Only '|', '\\' and a leading '"' give parse_pm_content() anything to do.
  const plain = !line.includes('|') && !line.includes('\\') && !line.trimStart().startsWith('"');
  const processed = plain ? line : parsePmContent(line) ?? line;
  let start = 0;
  while (start < processed.length && isSpace(processed.charCodeAt(start))) start++;
  let end = processed.length;
  if (end > start) end--;
  while (end > start && isSpace(processed.charCodeAt(end))) end--;
  if (end > start) end++;
  if (start === end || processed[start] === '#') return null;
  const nul = processed.indexOf('\0', start);
  return processed.slice(start, nul >= 0 && nul < end ? nul : end);
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d);
}

export const pmFromFileOperator: OperatorDefinition = { create: pmFromFile, pure: false, effectsOnMatch: false, requiredBytes: null };
