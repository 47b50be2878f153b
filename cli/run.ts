// Runs one wafctl invocation and returns its exit code: parse, dispatch, and turn every failure
// into `error: <code>: <message>` on stderr with the exit code of cli/exit-codes.ts.
import { CommanderError, type Command } from 'commander';
import { ExitWith, usageError } from './cli-error.js';
import type { CommandDeps } from './context.js';
import { toCliError } from './error-mapping.js';
import { ExitCode } from './exit-codes.js';
import { Output, type GlobalOptions } from './output.js';
import { buildProgram } from './program.js';

export async function runCli(argv: string[], deps: CommandDeps): Promise<number> {
  const program = buildProgram(deps);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    const out = new Output(deps.io, globalsOf(program));
    if (error instanceof ExitWith) return error.exitCode;
    if (error instanceof CommanderError) return commanderExit(error, program, argv, out);
    const cliError = toCliError(error);
    out.error(cliError);
    if (cliError.code === 'internal_error' && out.globals.verbose && error instanceof Error && error.stack) {
      deps.io.stderr.write(error.stack + '\n');
    }
    return cliError.exitCode;
  }
}

function globalsOf(program: Command): GlobalOptions {
  const opts = program.opts() as Partial<GlobalOptions>;
  return { json: Boolean(opts.json), quiet: Boolean(opts.quiet), verbose: Boolean(opts.verbose), color: opts.color !== false };
}

// Commander has already printed help or the version (exit 0) or found a usage error, whose text
// we print in our own format: `error: usage_error: unknown command 'sitee'` + `hint: did you mean site?`.
function commanderExit(error: CommanderError, program: Command, argv: string[], out: Output): number {
  if (error.exitCode === 0) return ExitCode.ok;
  if (error.code === 'commander.help') return ExitCode.usage; // a group named without a verb: help went to stderr
  const [first, ...rest] = error.message.replace(/^error: /, '').split('\n');
  const suggestion = rest.join(' ').match(/\(Did you mean (.+)\?\)/);
  const help = `see \`${commandPath(program, argv).join(' ')} --help\``;
  out.error(usageError(first, suggestion ? `did you mean ${suggestion[1]}? ${help}` : help));
  return ExitCode.usage;
}

/** The deepest command named by argv (`wafctl site add` for `site add --bogus`), for the help hint. */
export function commandPath(program: Command, argv: string[]): string[] {
  const path = [program.name()];
  let current = program;
  for (const word of argv) {
    if (word.startsWith('-')) continue;
    const next = current.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) break;
    path.push(next.name());
    current = next;
  }
  return path;
}
