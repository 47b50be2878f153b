/** Where a directive came from: every load error names it so the operator can fix the file. */
export interface SourceLocation {
  file: string;
  line: number;
}

/** A configuration that cannot be loaded. Always thrown at load time, never during a request. */
export class SecLangError extends Error {
  constructor(
    readonly location: SourceLocation,
    readonly reason: string,
  ) {
    super(`${location.file}:${location.line}: ${reason}`);
    this.name = 'SecLangError';
  }
}
