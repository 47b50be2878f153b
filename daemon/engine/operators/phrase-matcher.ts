// Case-insensitive multi-phrase search (Aho-Corasick), the engine behind @pm and @pmFromFile.
// Built once at rule load (phrase-automaton.ts); a search is one pass over the input. Reports what
// ModSecurity's acmp reports: the phrase that ends earliest in the input (the longest one ending
// there), as written in the rule or data file.
import { buildPhraseAutomaton, type PhraseAutomaton } from './phrase-automaton.js';

export class PhraseMatcher {
  private readonly automaton: PhraseAutomaton;
  /** The phrases as given (what a shared scan over several lists is built from: phrase-union.ts). */
  readonly phrases: readonly string[];

  constructor(phrases: Iterable<string>) {
    this.phrases = [...phrases];
    this.automaton = buildPhraseAutomaton([this.phrases]);
  }

  get size(): number {
    return this.automaton.listSizes[0];
  }

  /** The matched phrase, or null. */
  find(input: string): string | null {
    const { next, byteClass, firstReportingRow } = this.automaton;
    let row = 0;
    for (let i = 0; i < input.length; i++) {
      const c = input.charCodeAt(i);
      row = next[row + byteClass[c > 0xff ? 0 : c]];
      if (row >= firstReportingRow) return this.reported(row);
    }
    return null;
  }

  private reported(row: number): string {
    const { reports, phrases, firstReportingRow, classCount } = this.automaton;
    return phrases[reports[(row - firstReportingRow) / classCount]];
  }
}
