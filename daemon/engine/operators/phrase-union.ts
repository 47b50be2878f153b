// One scan for several phrase lists. CRS's response rules run four @pmFromFile lists (SQL, Java
// and PHP error messages, Java code) over the same RESPONSE_BODY, each a full pass over up to
// 512 KB; rules that read the same values through the same transformations share one automaton
// over all their lists (rules/shared-phrase-scans.ts), and the first rule to meet a value scans it
// once for every list. What each list reports is what its own PhraseMatcher would: the automaton
// reports, per list, the longest phrase of that list ending at each position, and the scan keeps
// each list's first report.
import { buildPhraseAutomaton, type PhraseAutomaton } from './phrase-automaton.js';
import type { PhraseMatcher } from './phrase-matcher.js';

export class PhraseUnion {
  private readonly automaton: PhraseAutomaton;
  /** The last value scanned and what each list found in it (a pure function of the value, so it
   *  holds across transactions; the next rule of the group asks about the same string). */
  private lastInput: string | undefined;
  private lastFound: Array<string | null> = [];

  constructor(members: readonly PhraseMatcher[]) {
    this.automaton = buildPhraseAutomaton(members.map((m) => m.phrases));
  }

  /** What list `member` finds in `input`: its phrase, or null. */
  find(input: string, member: number): string | null {
    if (input !== this.lastInput) {
      this.lastFound = this.scan(input);
      this.lastInput = input;
    }
    return this.lastFound[member];
  }

  private scan(input: string): Array<string | null> {
    const { next, byteClass, firstReportingRow, classCount, listCount, reports, phrases } = this.automaton;
    const found: Array<string | null> = new Array(listCount).fill(null);
    let open = listCount;
    let row = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      row = next[row + byteClass[c > 0xff ? 0 : c]];
      if (row < firstReportingRow) continue;
      const at = ((row - firstReportingRow) / classCount) * listCount;
      for (let list = 0; list < listCount; list++) {
        const phrase = reports[at + list];
        if (phrase < 0 || found[list] !== null) continue;
        found[list] = phrases[phrase];
        if (--open === 0) return found;
      }
    }
    return found;
  }
}
