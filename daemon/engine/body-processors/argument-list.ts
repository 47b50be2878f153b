// ARGS_POST as body processors collect them, with SecArgumentsLimit applied the way ModSecurity
// does: arguments past the limit are dropped and the request body is marked as in error. The
// processors stop parsing at the first argument past the limit (full()): the rest of the body
// would only cost time.
export class ArgumentList {
  readonly args: Array<[string, string]> = [];
  overLimit = false;

  constructor(private readonly limit: number) {}

  /** Whether the next argument would be over the limit. */
  full(): boolean {
    return this.args.length >= this.limit;
  }

  /** Adds one argument; returns false (and drops it) once the limit is reached. */
  add(name: string, value: string): boolean {
    if (this.args.length >= this.limit) {
      this.overLimit = true;
      return false;
    }
    this.args.push([name, value]);
    return true;
  }
}

export const ARGUMENT_LIMIT_MESSAGE = 'Request body argument count exceeds SecArgumentsLimit';
