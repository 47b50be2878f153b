// Counts a pattern's capturing groups and their names before parsing: PCRE decides whether
// `\12` is a back reference or an octal escape by the total number of groups in the pattern.

export interface GroupCensus {
  count: number;
  names: Map<string, number>;
}

const NAMED_GROUP = /^\(\?(?:P?<([A-Za-z_][A-Za-z0-9_]*)>|'([A-Za-z_][A-Za-z0-9_]*)')/;

export function censusGroups(src: string): GroupCensus {
  const names = new Map<string, number>();
  let count = 0;
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') {
      if (src[i + 1] === 'Q') {
        const end = src.indexOf('\\E', i + 2);
        i = end < 0 ? src.length : end + 2;
      } else {
        i += 2;
      }
    } else if (c === '[') {
      i = skipClass(src, i);
    } else if (c === '(') {
      if (src[i + 1] !== '?' && src[i + 1] !== '*') {
        count++;
      } else if (src.startsWith('(?#', i)) {
        const end = src.indexOf(')', i);
        i = end < 0 ? src.length : end;
      } else {
        const named = NAMED_GROUP.exec(src.slice(i, i + 40));
        if (named) names.set(named[1] ?? named[2], ++count);
      }
      i++;
    } else {
      i++;
    }
  }
  return { count, names };
}

/** Index just past the class that opens at `start` (or the pattern's end if it never closes). */
function skipClass(src: string, start: number): number {
  let i = start + 1;
  if (src[i] === '^') i++;
  if (src[i] === ']') i++;
  while (i < src.length) {
    const c = src[i];
    if (c === '\\') i += 2;
    else if (c === '[' && src[i + 1] === ':') {
      const end = src.indexOf(':]', i + 2);
      i = end < 0 ? i + 1 : end + 2;
    } else if (c === ']') return i + 1;
    else i++;
  }
  return i;
}
