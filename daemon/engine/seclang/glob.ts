// Include paths may use shell wildcards (`*`, `?`, `[...]`) in any path segment, like Apache's
// Include. Node 20 has no fs.glob, so this expands them segment by segment, sorted like Apache.
import { readdirSync, statSync } from 'node:fs';
import { join, isAbsolute, resolve, sep } from 'node:path';

function hasWildcard(segment: string): boolean {
  return /[*?[]/.test(segment);
}

function segmentRegex(segment: string): RegExp {
  let re = '^';
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i];
    if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else if (ch === '[') {
      const close = segment.indexOf(']', i + 1);
      if (close < 0) re += '\\[';
      else {
        re += '[' + segment.slice(i + 1, close).replace(/^!/, '^').replace(/\\/g, '\\\\') + ']';
        i = close;
      }
    } else re += ch.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(re + '$');
}

/** Expands `pattern` (relative to `baseDir` unless absolute) into existing paths, sorted. */
export function expandIncludePattern(pattern: string, baseDir: string): string[] {
  const absolute = isAbsolute(pattern) ? pattern : resolve(baseDir, pattern);
  if (!hasWildcard(absolute)) return [absolute];
  const segments = absolute.split(sep);
  let candidates = [segments[0] === '' ? sep : segments[0]];
  for (const segment of segments.slice(1)) {
    if (segment === '') continue;
    const next: string[] = [];
    for (const dir of candidates) {
      if (!hasWildcard(segment)) {
        next.push(join(dir, segment));
        continue;
      }
      let entries: string[];
      try {
        if (!statSync(dir).isDirectory()) continue;
        entries = readdirSync(dir);
      } catch {
        continue;
      }
      const re = segmentRegex(segment);
      for (const entry of entries.sort()) if (re.test(entry)) next.push(join(dir, entry));
    }
    candidates = next;
  }
  return candidates;
}
