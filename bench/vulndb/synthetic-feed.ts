// A synthetic Wordfence-format feed of any size, written record by record (never held in
// memory), deterministic for a seed. Records look like real production records (~3.6 KB on
// average: description, references, CWE, CVSS, CVE, researchers, Defiant + MITRE copyrights,
// 1-4 ranges, back-ported patched versions), and slugs follow a skewed popularity so that
// popular plugins carry a hundred records or so, as in the real feed. Used by the large-import test
// and by the benchmarks.

import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { seededRandom as prng } from '../seeded-random.js';

export interface SyntheticFeedOptions {
  /** Stop after this many records ... */
  records?: number;
  /** ... or once the file reaches this many bytes (whichever comes first). */
  targetBytes?: number;
  seed?: number;
  pluginSlugs?: number;
  themeSlugs?: number;
}

export interface SyntheticFeedInfo {
  records: number;
  bytes: number;
  /** Plugin slugs from most to least popular (index 0 carries the most records). */
  popularPlugins: string[];
}

const COPYRIGHTS = {
  message: 'This record contains material that is subject to copyright',
  defiant: {
    notice: 'Copyright 2012-2025 Defiant Inc.',
    license:
      "Defiant hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute this software vulnerability information. Any copy of the software vulnerability information you make for such purposes is authorized provided that you include a hyperlink to this vulnerability record and reproduce Defiant's copyright designation and this license in any such copy.",
    license_url: 'https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/',
  },
  mitre: {
    notice: 'Copyright 1999-2025 The MITRE Corporation',
    license:
      "CVE Usage: MITRE hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute Common Vulnerabilities and Exposures (CVE®). Any copy you make for such purposes is authorized provided that you reproduce MITRE's copyright designation and this license in any such copy.",
    license_url: 'https://www.cve.org/Legal/TermsOfUse',
  },
};

const WORDS = 'the plugin is vulnerable to stored cross site scripting via shortcode attributes due to insufficient input sanitization and output escaping on user supplied values which makes it possible for authenticated attackers with contributor level access and above to inject arbitrary web scripts in pages that will execute whenever a user accesses an injected page'.split(' ');
const KINDS = ['Cross-Site Scripting', 'SQL Injection', 'Cross-Site Request Forgery', 'Missing Authorization', 'Arbitrary File Upload', 'Local File Inclusion', 'Sensitive Information Exposure', 'PHP Object Injection'];

function uuid(rand: () => number): string {
  const hex = () => Math.floor(rand() * 0x10000).toString(16).padStart(4, '0');
  return `${hex()}${hex()}-${hex()}-5${hex().slice(1)}-${hex()}-${hex()}${hex()}${hex()}`;
}

export function pluginSlug(i: number): string {
  return `synthetic-plugin-${i}`;
}

export async function writeSyntheticFeed(path: string, opts: SyntheticFeedOptions = {}): Promise<SyntheticFeedInfo> {
  const rand = prng(opts.seed ?? 1);
  const maxRecords = opts.records ?? Number.POSITIVE_INFINITY;
  const targetBytes = opts.targetBytes ?? Number.POSITIVE_INFINITY;
  if (!Number.isFinite(maxRecords) && !Number.isFinite(targetBytes)) throw new Error('give records or targetBytes');
  const plugins = opts.pluginSlugs ?? 12_000;
  const themes = opts.themeSlugs ?? 1_500;
  // Skewed toward rank 0 like the real feed: with 12,000 plugin slugs and ~39,000 plugin records,
  // the top slug gets ~110 records (0.28%), the top 40 together ~1,100, a random slug ~3.
  const pick = (n: number) => Math.floor(Math.pow(rand(), 1.6) * n);

  const out = createWriteStream(path, { highWaterMark: 1 << 20 });
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{');
  let n = 0;
  while (n < maxRecords && bytes < targetBytes) {
    const id = uuid(rand);
    const roll = rand();
    // ~0.7% core (about 300 of 42,500 in the real feed), ~9% themes, the rest plugins.
    const type = roll < 0.007 ? 'core' : roll < 0.1 ? 'theme' : 'plugin';
    const slug = type === 'core' ? 'wordpress' : type === 'theme' ? `synthetic-theme-${pick(themes)}` : pluginSlug(pick(plugins));
    // Core ranges sit in WordPress 3.x-6.x with minors 0-9; plugins and themes anywhere in 1-9.x.
    const major = type === 'core' ? 3 + Math.floor(rand() * 4) : 1 + Math.floor(rand() * 9);
    const minor = Math.floor(rand() * (type === 'core' ? 10 : 20));
    const patch = Math.floor(rand() * 10);
    const ranges: Record<string, unknown> = {};
    const patched: string[] = [];
    const branches = 1 + Math.floor(Math.pow(rand(), 4) * 4);
    for (let b = 0; b < branches; b++) {
      const to = `${major}.${minor + b}.${patch}`;
      const from = b === 0 ? '*' : `${major}.${minor + b}.0`;
      ranges[`${from} - ${to}`] = { from_version: from, from_inclusive: true, to_version: to, to_inclusive: true };
      patched.push(`${major}.${minor + b}.${patch + 1}`);
    }
    const isPatched = rand() < 0.85;
    const score = Math.round(rand() * 100) / 10;
    const words = 120 + Math.floor(rand() * 100);
    const description = Array.from({ length: words }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
    const kind = KINDS[Math.floor(rand() * KINDS.length)];
    const cve = rand() < 0.8 ? `CVE-2024-${90000 + n}` : null;
    const record = {
      id,
      title: `${slug} <= ${major}.${minor}.${patch} - ${kind}`,
      software: [
        {
          type,
          name: slug,
          slug,
          affected_versions: ranges,
          patched: isPatched,
          patched_versions: isPatched ? patched : [],
          remediation: isPatched ? `Update to version ${patched.join(', ')}, or a newer patched version` : 'No known patch available.',
        },
      ],
      informational: rand() < 0.01,
      description,
      references: [`https://www.wordfence.com/threat-intel/vulnerabilities/id/${id}?source=api-prod`, `https://plugins.trac.wordpress.org/changeset/${Math.floor(rand() * 3e6)}/${slug}`],
      cwe: { id: 79, name: `Improper Neutralization (${kind})`, description: 'The product does not neutralize or incorrectly neutralizes user-controllable input before it is placed in output that is used as a web page that is served to other users.' },
      cvss: { vector: 'CVSS:3.1/AV:N/AC:L/PR:L/UI:N/S:C/C:L/I:L/A:N', score, rating: score >= 9 ? 'Critical' : score >= 7 ? 'High' : score >= 4 ? 'Medium' : score > 0 ? 'Low' : 'None' },
      cve,
      cve_link: cve && `https://www.cve.org/CVERecord?id=${cve}`,
      researchers: ['Synthetic Researcher'],
      published: '2024-05-01 12:00:00',
      updated: `2024-${String(1 + (n % 12)).padStart(2, '0')}-15 08:00:00`,
      copyrights: cve ? COPYRIGHTS : { message: COPYRIGHTS.message, defiant: COPYRIGHTS.defiant },
    };
    await write(`${n === 0 ? '' : ','}${JSON.stringify(id)}:${JSON.stringify(record)}`);
    n++;
  }
  await write('}');
  out.end();
  await once(out, 'finish');
  return { records: n, bytes, popularPlugins: Array.from({ length: plugins }, (_, i) => pluginSlug(i)) };
}
