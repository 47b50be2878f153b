// The top-level `attribution` object every check response carries (vulndb README §6): the
// Defiant licence requires its notice and licence text in every copy. The text is taken from
// the `defiant` block of the most recently updated record of the imported feed; before any
// import, or for a feed without one, the built-in copy below (from the sample feed) is used.

export interface Attribution {
  provider: string;
  provider_url: string;
  license: string;
}

export interface CopyrightHolder {
  notice: string;
  license: string;
  license_url: string;
}

export const PROVIDER = 'Wordfence Intelligence';
export const PROVIDER_URL = 'https://www.wordfence.com/threat-intel/vulnerabilities/';

/** Copyright 2012-2025 Defiant Inc.: the text as the feed carries it, reproduced word for word. */
export const BUILT_IN_DEFIANT: CopyrightHolder = {
  notice: 'Copyright 2012-2025 Defiant Inc.',
  license:
    'Defiant hereby grants you a perpetual, worldwide, non-exclusive, no-charge, royalty-free, irrevocable copyright license to reproduce, prepare derivative works of, publicly display, publicly perform, sublicense, and distribute this software vulnerability information. Any copy of the software vulnerability information you make for such purposes is authorized provided that you include a hyperlink to this vulnerability record and reproduce Defiant\'s copyright designation and this license in any such copy.',
  license_url: 'https://www.wordfence.com/wordfence-intelligence-terms-and-conditions/',
};

export function attributionFrom(defiant: CopyrightHolder | null): Attribution {
  const d = defiant ?? BUILT_IN_DEFIANT;
  return { provider: PROVIDER, provider_url: PROVIDER_URL, license: `${d.notice} ${d.license} (${d.license_url})` };
}

/** Reads a `copyrights.defiant` block; null unless notice, license and license_url are all strings. */
export function defiantBlockOf(copyrights: Record<string, unknown>): CopyrightHolder | null {
  const d = copyrights.defiant;
  if (typeof d !== 'object' || d === null) return null;
  const { notice, license, license_url } = d as Record<string, unknown>;
  if (typeof notice !== 'string' || typeof license !== 'string' || typeof license_url !== 'string') return null;
  return { notice, license, license_url };
}

/**
 * Keeps the defiant block of the most recently updated record seen during an import. Records
 * without an `updated` time rank below every dated one; among equals the first seen wins.
 */
export class LatestDefiantBlock {
  private best: CopyrightHolder | null = null;
  private bestUpdated = Number.NEGATIVE_INFINITY;

  offer(updatedIso: string | null, copyrights: Record<string, unknown>): void {
    const block = defiantBlockOf(copyrights);
    if (block === null) return;
    const updated = updatedIso === null ? Number.NEGATIVE_INFINITY : Date.parse(updatedIso);
    if (this.best === null || updated > this.bestUpdated) {
      this.best = block;
      this.bestUpdated = updated;
    }
  }

  get value(): CopyrightHolder | null {
    return this.best;
  }
}
