// The human view of a check response (`wafctl vuln check` without --json): one block per
// component (core, each plugin, each theme), one line per vulnerability with its severity in
// colour, the fix and the record's link (the licence's hyperlink condition), then the summary
// and the attribution. The attribution carries Defiant's notice and licence text, which the
// licence requires in every copy of the data, so it is printed in full, last.

import type { ComponentResult, VulnCheckResponse, VulnItem } from '../../shared/schemas/vulndb.js';
import type { Style } from '../style.js';

export interface RenderOptions {
  style: Style;
  /** List components with nothing found (default true). */
  showClean?: boolean;
}

const SEVERITY_LABEL_WIDTH = 8; // "CRITICAL"

export function renderCheck(response: VulnCheckResponse, opts: RenderOptions): string {
  const { style } = opts;
  const showClean = opts.showClean ?? true;
  const lines: string[] = [];
  const block = (heading: string, version: string, items: readonly VulnItem[]) => {
    const counted = items.filter((v) => !v.informational).length;
    if (items.length === 0 && !showClean) return;
    const tally = items.length === 0 ? style.green('no known vulnerabilities') : countText(counted, items.length - counted);
    lines.push(`${style.bold(heading)} ${version}  ${tally}`);
    for (const v of items) lines.push(...itemLines(v, style));
  };
  block('WordPress core', response.cms.version, response.cms.vulnerabilities);
  const each = (label: string, list: readonly ComponentResult[]) => {
    for (const c of list) block(`${label} ${c.slug}`, c.version, c.vulnerabilities);
  };
  each('Plugin', response.plugins);
  each('Theme', response.themes);

  const s = response.summary;
  lines.push('');
  lines.push(
    `${style.bold('Summary:')} ${s.total_vulnerabilities} ${plural(s.total_vulnerabilities, 'vulnerability', 'vulnerabilities')} ` +
      `(${paintSeverity(`${s.critical} critical`, 'critical', style)}, ${paintSeverity(`${s.high} high`, 'high', style)}, ` +
      `${paintSeverity(`${s.medium} medium`, 'medium', style)}, ${s.low} low) in WordPress core, ` +
      `${response.plugins.length} ${plural(response.plugins.length, 'plugin', 'plugins')} and ${response.themes.length} ${plural(response.themes.length, 'theme', 'themes')}`,
  );
  const a = response.attribution;
  lines.push(style.dim(`Vulnerability data: ${a.provider} (${a.provider_url}). ${a.license}`));
  return lines.join('\n') + '\n';
}

function itemLines(v: VulnItem, style: Style): string[] {
  const label = v.informational ? 'INFO' : v.severity.toUpperCase();
  const score = v.cvss === null ? '  - ' : v.cvss.score.toFixed(1).padStart(4);
  const fix = v.fixed_in !== null ? `fixed in ${v.fixed_in}` : v.patched ? 'patched in another branch' : 'no fix available';
  const head = `  ${paintSeverity(label.padEnd(SEVERITY_LABEL_WIDTH), v.informational ? 'info' : v.severity, style)} ${score}  ${v.title}`;
  const cve = v.cve ? `${v.cve}  ` : '';
  return [head, style.dim(`  ${' '.repeat(SEVERITY_LABEL_WIDTH)}       ${cve}${fix}  ${v.url}`)];
}

function paintSeverity(text: string, severity: VulnItem['severity'] | 'info', style: Style): string {
  switch (severity) {
    case 'critical':
      return style.bold(style.red(text));
    case 'high':
      return style.red(text);
    case 'medium':
      return style.yellow(text);
    case 'low':
      return text;
    default:
      return style.dim(text);
  }
}

function countText(counted: number, informational: number): string {
  const main = `${counted} ${plural(counted, 'vulnerability', 'vulnerabilities')}`;
  return informational > 0 ? `${main}, ${informational} informational` : main;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

/** Messages for stderr that go with a response (the no-database answer). */
export function checkWarnings(response: VulnCheckResponse): string[] {
  return response.message !== undefined ? [response.message] : [];
}
