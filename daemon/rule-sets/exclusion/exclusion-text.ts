// The SecLang of an exclusion inside a site's "before" file, and finding it again for --remove.
// One block per request: a marker comment naming the request id and its event ids (so --remove
// finds it by either, even after the events have aged out of the store), then one SecRule per
// (rule, variable), then a blank line. Ids come from a range reserved for these rules, so they
// never clash with CRS (9xxxxx), the base settings (100000-100099) or cms (200000-200999).
// phase:1 so the removal also reaches CRS's phase-1 rules (headers); at phase 1 the engine's
// REQUEST_FILENAME is the path as sent (as in ModSecurity v2), hence the operand is that path.
import type { ExcludedTarget } from '../../../shared/schemas/rule-exclusion.js';
import type { ExclusionPlan } from './exclusion-plan.js';

export const EXCLUSION_FIRST_ID = 100100;
export const EXCLUSION_LAST_ID = 100999;
const MARKER = '# wafctl rules exclude: request ';
const MARKER_RE = /^# wafctl rules exclude: request ([0-9a-f-]{36}) \(events ([\d,]+)\)/;

export function renderExclusion(plan: ExclusionPlan, ids: readonly number[], at: string): string {
  const lines = [`${MARKER}${plan.requestId} (events ${plan.eventIds.join(',')}), ${at}`];
  plan.targets.forEach((t, i) => lines.push(secRule(plan.path, t, ids[i])));
  return `${lines.join('\n')}\n`;
}

function secRule(path: string, t: ExcludedTarget, id: number): string {
  const ctl = t.target === null ? `ctl:ruleRemoveById=${t.rule_id}` : `ctl:ruleRemoveTargetById=${t.rule_id};${t.target}`;
  return `SecRule REQUEST_FILENAME "@streq ${path}" "id:${id},phase:1,pass,nolog,${ctl}"`;
}

/** `count` ids of the reserved range that `text` does not use yet; null when the range is full. */
export function freeIds(text: string, count: number): number[] | null {
  const used = new Set<number>();
  for (const m of text.matchAll(/\bid:(\d+)/g)) used.add(Number(m[1]));
  const out: number[] = [];
  for (let id = EXCLUSION_FIRST_ID; id <= EXCLUSION_LAST_ID && out.length < count; id++) if (!used.has(id)) out.push(id);
  return out.length === count ? out : null;
}

/** `text` with the block added at its end, separated by a blank line. */
export function appendExclusion(text: string, block: string): string {
  if (text === '') return block;
  return `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`;
}

/** Does a block of `text` come from this request (by request id or one of its event ids)? */
export function findExclusion(text: string, ref: string): { start: number; end: number; requestId: string } | null {
  const lines = text.split('\n');
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    const m = MARKER_RE.exec(lines[i]);
    if (m && (m[1] === ref.toLowerCase() || m[2].split(',').includes(ref))) {
      // The block runs to the first line that is not one of its SecRules.
      let end = offset + lines[i].length + 1;
      for (let j = i + 1; j < lines.length && lines[j].startsWith('SecRule REQUEST_FILENAME "@streq '); j++) end += lines[j].length + 1;
      return { start: offset, end: Math.min(end, text.length), requestId: m[1] };
    }
    offset += lines[i].length + 1;
  }
  return null;
}

/** `text` without the block, and without the blank line that separated it. */
export function removeExclusion(text: string, found: { start: number; end: number }): { text: string; removed: string } {
  const removed = text.slice(found.start, found.end);
  let before = text.slice(0, found.start);
  let after = text.slice(found.end);
  if (before.endsWith('\n\n')) before = before.slice(0, -1);
  else if (after.startsWith('\n')) after = after.slice(1);
  return { text: before + after, removed };
}
