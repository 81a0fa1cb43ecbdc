import type { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { CliError, EXIT } from '../errors.js';

/** Completion words by command path (`''` for the program itself, `'deliveries'`, ...). */
export function completionTable(program: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const visit = (command: Command, path: string) => {
    const subcommands = command.commands.map((c) => c.name());
    const flags = command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => !!f));
    table.set(path, [...subcommands, ...flags, '--help']);
    for (const sub of command.commands) visit(sub, path ? `${path} ${sub.name()}` : sub.name());
  };
  visit(program, '');
  return table;
}

/** The bash completion script: completes commands, subcommands and their flags, files otherwise. */
export function bashCompletion(program: Command): string {
  const table = completionTable(program);
  const keys = [...table.keys()].filter(Boolean);
  const cases = [...table.entries()]
    .map(([path, words]) => `    "${path}") words="${words.join(' ')}" ;;`)
    .join('\n');
  return `# platform completion for bash: source <(platform completion bash)
_platform_completion() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" key="" w words=""
  local known="|${keys.join('|')}|"
  for w in "\${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case "$known" in *"|\${key:+$key }$w|"*) key="\${key:+$key }$w" ;; esac
  done
  case "$key" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _platform_completion platform
`;
}

/**
 * Registers `platform completion bash|zsh`: prints a shell completion script.
 *
 * @example
 * ```ts
 * registerCompletion(program, context); // platform completion bash > ~/.local/share/bash-completion/completions/platform
 * ```
 */
export function registerCompletion(program: Command, context: CommandContext): void {
  program
    .command('completion')
    .description('print the shell completion script (bash or zsh)')
    .argument('<shell>', 'bash or zsh')
    .addHelpText(
      'after',
      `
Examples:
  $ platform completion bash > ~/.local/share/bash-completion/completions/platform
  $ source <(platform completion bash)                   # or this in ~/.bashrc
  $ platform completion zsh > "\${fpath[1]}/_platform"    # or: source <(platform completion zsh) in ~/.zshrc`,
    )
    .action((shell: string) => {
      if (shell === 'bash') return context.io.stdout(bashCompletion(program));
      if (shell === 'zsh') {
        // zsh runs the bash function through its bash-completion emulation.
        return context.io.stdout(
          `# platform completion for zsh: source <(platform completion zsh)\nautoload -U +X bashcompinit && bashcompinit\n${bashCompletion(program)}`,
        );
      }
      throw new CliError('usage', `unknown shell "${shell}"; use bash or zsh.`, EXIT.usage);
    });
}
