// Rule id lists as SecRuleRemoveById and ctl:ruleRemoveById take them: `920100`,
// `1-999999`, several separated by spaces or commas.

export interface IdRange {
  readonly from: number;
  readonly to: number;
}

export function parseIdRanges(text: string): IdRange[] {
  const ranges: IdRange[] = [];
  for (const part of text.split(/[\s,]+/)) {
    if (part === '') continue;
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (m === null) throw new Error(`bad rule id or range "${part}"`);
    const from = Number(m[1]);
    const to = m[2] === undefined ? from : Number(m[2]);
    if (to < from) throw new Error(`empty rule id range "${part}"`);
    ranges.push({ from, to });
  }
  if (ranges.length === 0) throw new Error('no rule id given');
  return ranges;
}

export function idInRanges(id: number, ranges: readonly IdRange[]): boolean {
  for (const r of ranges) if (id >= r.from && id <= r.to) return true;
  return false;
}
