// check(request) -> the spec 2.7 response. Each request item is compiled once, tested against
// the index candidates for its (type, slug), and every matching record is listed once per item
// (README §3), with severity, fixed_in and the counting rules of README §5.

import type { ComponentResult, VulnCheckRequest, VulnCheckResponse, VulnItem } from '../../shared/schemas/vulndb.js';
import { attributionFrom } from './attribution.js';
import { rangeContains, type LoadedGeneration } from './loaded-generation.js';
import type { SoftwareType, StoredRecord } from './record.js';
import { countMatch, emptySummary, severityOf, type Severity, type Summary } from './severity.js';
import { compareCompiled, compileVersion, type CompiledVersion } from './version.js';

export const NO_DATABASE_MESSAGE =
  'No vulnerability database is loaded, so nothing was checked: import the Wordfence Intelligence feed with `wafctl vulndb import FILE|URL`.';

/**
 * Answers a validated, normalised request (VulnCheckRequestSchema output). With no database,
 * the answer has the same shape, every list empty, zero counts and a `message` saying so.
 */
export function checkRequest(gen: LoadedGeneration | null, req: VulnCheckRequest, now: Date): VulnCheckResponse {
  const summary = emptySummary();
  const match = (type: SoftwareType, slug: string, version: string): VulnItem[] =>
    gen === null ? [] : matchItem(gen, type, slug, version, summary);
  const cms = { version: req.cms_version, vulnerabilities: match('core', 'wordpress', req.cms_version) };
  const component = (type: SoftwareType) => (item: { slug: string; version: string }): ComponentResult => ({
    slug: item.slug,
    version: item.version,
    vulnerabilities: match(type, item.slug, item.version),
  });
  const response: VulnCheckResponse = {
    success: true,
    checked_at: now.toISOString(),
    cms,
    plugins: req.plugins.map(component('plugin')),
    themes: req.themes.map(component('theme')),
    summary,
    attribution: attributionFrom(gen?.meta.defiant ?? null),
  };
  if (gen === null) response.message = NO_DATABASE_MESSAGE;
  return response;
}

/** The records matching one item, each once, sorted by CVSS score (null last) then id. */
function matchItem(gen: LoadedGeneration, type: SoftwareType, slug: string, version: string, summary: Summary): VulnItem[] {
  const candidates = gen.candidates(type, slug);
  if (candidates.length === 0) return [];
  const v = compileVersion(version);
  const seen = new Set<number>();
  const items: VulnItem[] = [];
  for (const c of candidates) {
    if (seen.has(c.recNo) || !c.ranges.some((r) => rangeContains(r, v))) continue;
    seen.add(c.recNo);
    const item = toItem(gen.record(c.recNo), c.softwareIndex, v);
    countMatch(summary, item.severity, item.informational);
    items.push(item);
  }
  return items.sort(byScoreThenId);
}

/** Per-record values computed once, on first match: severity and compiled patched versions. */
interface Prepared {
  severity: Severity;
  patched: CompiledVersion[][];
}
const preparedByRecord = new WeakMap<StoredRecord, Prepared>();

function prepared(record: StoredRecord): Prepared {
  let p = preparedByRecord.get(record);
  if (p === undefined) {
    p = { severity: severityOf(record.cvss?.score), patched: record.software.map((sw) => sw.patched_versions.map(compileVersion)) };
    preparedByRecord.set(record, p);
  }
  return p;
}

function toItem(record: StoredRecord, softwareIndex: number, checked: CompiledVersion): VulnItem {
  const sw = record.software[softwareIndex];
  const prep = prepared(record);
  return {
    id: record.id,
    title: record.title,
    description: record.description,
    severity: prep.severity,
    cvss: record.cvss,
    cve: record.cve,
    cve_link: record.cve_link,
    cwe: record.cwe,
    informational: record.informational,
    patched: sw.patched,
    patched_versions: sw.patched_versions,
    fixed_in: firstPatchedAbove(sw.patched_versions, prep.patched[softwareIndex], checked),
    remediation: sw.remediation,
    url: record.url,
    references: record.references,
    published: record.published,
    updated: record.updated,
    copyrights: record.copyrights,
  };
}

/** The lowest patched version strictly above the checked one; back-ports make this per branch. */
function firstPatchedAbove(patched: readonly string[], compiled: readonly CompiledVersion[], checked: CompiledVersion): string | null {
  let best = -1;
  for (let i = 0; i < compiled.length; i++) {
    if (compareCompiled(compiled[i], checked) <= 0) continue;
    if (best < 0 || compareCompiled(compiled[i], compiled[best]) < 0) best = i;
  }
  return best < 0 ? null : patched[best];
}

function byScoreThenId(a: VulnItem, b: VulnItem): number {
  const sa = a.cvss?.score ?? null;
  const sb = b.cvss?.score ?? null;
  if (sa !== sb) {
    if (sa === null) return 1;
    if (sb === null) return -1;
    return sb - sa;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
