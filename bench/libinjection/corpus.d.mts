// Types for corpus.mjs (plain ESM so that the bench runs on dist/ with bare node).
export declare const CORPUS_DIR: string;
export declare function urlDecode(s: string): string;
export interface CorpusLine {
  line: number;
  raw: string;
  input: string;
}
export declare function readCorpus(file: string): CorpusLine[];
export declare function corpusFiles(prefix: string): string[];
