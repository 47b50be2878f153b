// Validation of one feed record (vulndb README §2) and its reduction to what we serve.
// A record is skipped (and counted) when id, title or software is missing or empty, when a
// software type is not core/plugin/theme, or when no software item keeps a usable range.
// Unknown extra fields are accepted and dropped: the stored record holds only served fields.

import { parseFeedTime } from './feed-time.js';

export type SoftwareType = 'core' | 'plugin' | 'theme';
const SOFTWARE_TYPES: ReadonlySet<string> = new Set(['core', 'plugin', 'theme']);

/** A version range as stored in the index: `'*'` means that side is unbounded. */
export interface RangeBounds {
  from: string;
  fromInclusive: boolean;
  to: string;
  toInclusive: boolean;
}

/** One software item of a stored record: what a response item takes from "the matching Software". */
export interface StoredSoftware {
  type: SoftwareType;
  slug: string;
  name: string | null;
  patched: boolean;
  patched_versions: string[];
  remediation: string | null;
}

export interface Cvss {
  vector: string | null;
  score: number;
  rating: string | null;
}

export interface Cwe {
  id: number | null;
  name: string | null;
  description: string | null;
}

/** What the importer writes to records.jsonl: served fields only. */
export interface StoredRecord {
  id: string;
  title: string;
  description: string | null;
  informational: boolean;
  cvss: Cvss | null;
  cve: string | null;
  cve_link: string | null;
  cwe: Cwe | null;
  url: string;
  references: string[];
  published: string | null;
  updated: string | null;
  copyrights: Record<string, unknown>;
  software: StoredSoftware[];
}

/** The matchable part of a software item, for the index: same position as in `software`. */
export interface SoftwareRanges {
  type: SoftwareType;
  slug: string;
  ranges: RangeBounds[];
}

export type RecordVerdict =
  | { ok: true; record: StoredRecord; ranges: SoftwareRanges[]; hasDescription: boolean }
  | { ok: false; reason: string };

const RECORD_URL_PREFIX = 'https://www.wordfence.com/threat-intel/vulnerabilities/id/';

export function validateRecord(raw: unknown): RecordVerdict {
  if (!isObject(raw)) return { ok: false, reason: 'the record is not a JSON object' };
  const id = nonEmptyString(raw.id);
  if (id === null) return { ok: false, reason: 'id is missing or empty' };
  const title = nonEmptyString(raw.title);
  if (title === null) return { ok: false, reason: 'title is missing or empty' };
  if (!Array.isArray(raw.software) || raw.software.length === 0) {
    return { ok: false, reason: 'software is missing or empty' };
  }
  const software: StoredSoftware[] = [];
  const ranges: SoftwareRanges[] = [];
  let usable = false;
  for (const [i, item] of raw.software.entries()) {
    if (!isObject(item)) return { ok: false, reason: `software[${i}] is not an object` };
    if (typeof item.type !== 'string' || !SOFTWARE_TYPES.has(item.type)) {
      return { ok: false, reason: `software[${i}].type ${JSON.stringify(item.type)} is not core, plugin or theme` };
    }
    const type = item.type as SoftwareType;
    const slug = nonEmptyString(item.slug)?.trim().toLowerCase() ?? '';
    const kept = slug === '' ? [] : usableRanges(item.affected_versions);
    if (kept.length > 0) usable = true;
    software.push({
      type,
      slug,
      name: stringOrNull(item.name),
      patched: item.patched === true,
      patched_versions: Array.isArray(item.patched_versions)
        ? item.patched_versions.filter((v): v is string => typeof v === 'string' && v.trim() !== '')
        : [],
      remediation: stringOrNull(item.remediation),
    });
    ranges.push({ type, slug, ranges: kept });
  }
  if (!usable) return { ok: false, reason: 'no software item has a usable version range' };

  const references = Array.isArray(raw.references)
    ? raw.references.filter((r): r is string => typeof r === 'string')
    : [];
  return {
    ok: true,
    hasDescription: 'description' in raw,
    ranges,
    record: {
      id,
      title,
      description: stringOrNull(raw.description),
      informational: raw.informational === true,
      cvss: cvssOf(raw.cvss),
      cve: stringOrNull(raw.cve),
      cve_link: stringOrNull(raw.cve_link),
      cwe: cweOf(raw.cwe),
      url: references.find((r) => r.startsWith(RECORD_URL_PREFIX)) ?? RECORD_URL_PREFIX + encodeURIComponent(id),
      references,
      published: parseFeedTime(raw.published),
      updated: parseFeedTime(raw.updated),
      copyrights: isObject(raw.copyrights) ? raw.copyrights : {},
      software,
    },
  };
}

/** Drops ranges whose bounds are missing, empty or not strings (README §2). */
function usableRanges(affected: unknown): RangeBounds[] {
  if (!isObject(affected)) return [];
  const out: RangeBounds[] = [];
  for (const range of Object.values(affected)) {
    if (!isObject(range)) continue;
    const from = nonEmptyString(range.from_version)?.trim();
    const to = nonEmptyString(range.to_version)?.trim();
    if (!from || !to) continue;
    out.push({ from, fromInclusive: range.from_inclusive === true, to, toInclusive: range.to_inclusive === true });
  }
  return out;
}

function cvssOf(raw: unknown): Cvss | null {
  if (!isObject(raw) || typeof raw.score !== 'number' || !Number.isFinite(raw.score)) return null;
  return { vector: stringOrNull(raw.vector), score: raw.score, rating: stringOrNull(raw.rating) };
}

function cweOf(raw: unknown): Cwe | null {
  if (!isObject(raw)) return null;
  return {
    id: typeof raw.id === 'number' && Number.isInteger(raw.id) ? raw.id : null,
    name: stringOrNull(raw.name),
    description: stringOrNull(raw.description),
  };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function nonEmptyString(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

function stringOrNull(v: unknown): string | null {
  return typeof v === 'string' ? v : null;
}
