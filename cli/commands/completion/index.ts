// wafctl completion bash|zsh|fish: prints a shell completion script generated from the command
// tree this binary has (command-tree.ts), so completion cannot drift from the commands.
import { Argument, type Command } from 'commander';
import type { CommandDeps } from '../../context.js';
import { completionTree } from './command-tree.js';
import { bashScript, fishScript, zshScript } from './scripts.js';

const SHELLS = { bash: bashScript, zsh: zshScript, fish: fishScript } as const;
type Shell = keyof typeof SHELLS;

export function registerCompletion(program: Command, deps: CommandDeps): void {
  program
    .command('completion')
    .description('print a shell completion script (bash, zsh or fish)')
    .addArgument(new Argument('<shell>', 'the shell').choices(Object.keys(SHELLS)))
    .addHelpText(
      'after',
      '\nExamples:\n  source <(wafctl completion bash)\n  wafctl completion zsh > "${fpath[1]}/_wafctl"\n  wafctl completion fish > ~/.config/fish/completions/wafctl.fish\n',
    )
    .action((shell: Shell) => {
      // The whole tree, from the root: commands registered after this one are included too.
      deps.io.stdout.write(SHELLS[shell](completionTree(program)));
    });
}
