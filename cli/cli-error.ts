// The one error type commands throw. The runner prints it as `error: <code>: <message>` (plus a
// hint line) and exits with its code; nothing else in the CLI prints errors.
import { exitCodeForErrorCode, type ExitCodeValue } from './exit-codes.js';

export class CliError extends Error {
  readonly code: string;
  readonly hint?: string;
  readonly exitCode: ExitCodeValue;

  constructor(code: string, message: string, options: { hint?: string; exitCode?: ExitCodeValue } = {}) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.hint = options.hint;
    this.exitCode = options.exitCode ?? exitCodeForErrorCode(code);
  }
}

export function usageError(message: string, hint?: string): CliError {
  return new CliError('usage_error', message, { hint });
}

/** Ends the run with an exit code and no further output (the command already said what it had to). */
export class ExitWith extends Error {
  constructor(readonly exitCode: number) {
    super(`exit ${exitCode}`);
    this.name = 'ExitWith';
  }
}
