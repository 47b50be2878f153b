// A rule match as ModSecurity v2 writes it to Apache's error log:
//   ModSecurity: Warning. Matched "..." at ARGS:x. [file "..."] [line "12"] [id "942100"] ...
// Test runners (CRS's ftw) and SIEM parsers match on this shape, `[id "942100"]` above all.
import type { RuleMatch } from '../../../daemon/engine/rules/match.js';

/** ModSecurity's log_escape: quotes and backslashes escaped, non-printable bytes as \xHH. */
export function logEscape(text: string, max = 512): string {
  let out = '';
  const n = Math.min(text.length, max);
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c < 0x20 || c > 0x7e) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += text[i];
  }
  return text.length > max ? `${out}...` : out;
}

export interface LogLineContext {
  clientAddr: string;
  hostname: string;
  uri: string;
  uniqueId: string;
}

export function formatModSecurityLogLine(m: RuleMatch, ctx: LogLineContext): string {
  const head = m.disruptive ? 'Access denied (phase ' + m.phase + ').' : 'Warning.';
  const what = m.operator === '' ? 'Unconditional match in SecAction.' : `Matched "${logEscape(m.operator, 200)}" at ${logEscape(m.matchedVarName)}.`;
  let line = `[client ${ctx.clientAddr}] ModSecurity: ${head} ${what}`;
  line += ` [file "${m.file}"] [line "${m.line}"] [id "${m.id}"]`;
  if (m.rev !== '') line += ` [rev "${logEscape(m.rev)}"]`;
  if (m.msg !== '') line += ` [msg "${logEscape(m.msg)}"]`;
  if (m.data !== '') line += ` [data "${logEscape(m.data)}"]`;
  if (m.severity !== '') line += ` [severity "${m.severity}"]`;
  if (m.ver !== '') line += ` [ver "${logEscape(m.ver)}"]`;
  if (m.maturity !== undefined) line += ` [maturity "${m.maturity}"]`;
  if (m.accuracy !== undefined) line += ` [accuracy "${m.accuracy}"]`;
  for (const tag of m.tags) line += ` [tag "${logEscape(tag)}"]`;
  line += ` [hostname "${logEscape(ctx.hostname)}"] [uri "${logEscape(ctx.uri)}"] [unique_id "${ctx.uniqueId}"]`;
  return line;
}
