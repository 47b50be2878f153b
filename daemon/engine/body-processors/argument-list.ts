// ARGS_POST as body processors collect them, with SecArgumentsLimit applied the way ModSecurity
// does: arguments past the limit are dropped and the request body is marked as in error.
export class ArgumentList {
  readonly args: Array<[string, string]> = [];
  overLimit = false;

  constructor(private readonly limit: number) {}

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
