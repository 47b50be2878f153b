// The commander tree flattened for completion scripts: every command path with its subcommands,
// options and the fixed choices of option values and arguments. Scripts are generated from this
// at run time, so a new command or option is completed without touching the scripts.
import type { Command } from 'commander';

export interface CompletionWord {
  word: string;
  description: string;
}

export interface CompletionNode {
  /** Subcommand names joined by `/` (`site/add`); '' for wafctl itself. */
  path: string;
  subcommands: CompletionWord[];
  /** Long (and short) options of this command; the root's are global and apply everywhere. */
  options: CompletionWord[];
  /** Option -> allowed values (`--period` -> 24h 7d ...). */
  optionChoices: Record<string, string[]>;
  /** Fixed choices of the first argument (`completion` -> bash zsh fish). */
  argumentChoices: string[];
}

export function completionTree(program: Command): CompletionNode[] {
  const nodes: CompletionNode[] = [];
  const visit = (command: Command, path: string) => {
    const options: CompletionWord[] = [];
    const optionChoices: Record<string, string[]> = {};
    for (const option of command.options) {
      for (const flag of [option.long, option.short]) {
        if (flag) options.push({ word: flag, description: option.description });
      }
      if (option.long && option.argChoices) optionChoices[option.long] = [...option.argChoices];
    }
    options.push({ word: '--help', description: 'show help for the command' });
    const argument = command.registeredArguments[0];
    nodes.push({
      path,
      subcommands: command.commands.map((sub) => ({ word: sub.name(), description: sub.description() })),
      options,
      optionChoices,
      argumentChoices: argument?.argChoices ? [...argument.argChoices] : [],
    });
    for (const sub of command.commands) visit(sub, path ? `${path}/${sub.name()}` : sub.name());
  };
  visit(program, '');
  return nodes;
}

/** Every command path but the root, for the scripts' "is this word a subcommand here?" test. */
export function commandPaths(nodes: readonly CompletionNode[]): string[] {
  return nodes.map((n) => n.path).filter((p) => p !== '');
}

/** One line, at most 80 characters: descriptions show beside candidates. */
export function shortDescription(text: string): string {
  const line = text.split('\n')[0].trim();
  return line.length > 80 ? line.slice(0, 79) + '…' : line;
}
