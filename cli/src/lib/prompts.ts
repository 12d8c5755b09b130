/**
 * The CLI's one guarded prompt module. Every question goes through here:
 * - `--yes` answers yes to confirmations;
 * - with `--json`, `--yes` or no TTY, a question with a default takes the default, and a
 *   question without one is a clear error (exit 1) naming the flag that answers it.
 * Prompts render on stderr so that stdout stays clean; a question's text is made terminal-safe
 * (it may name a stored record, e.g. the project a delete asks to confirm).
 */
import type { CommandContext } from './output.js';
import { usageError } from './output.js';
import { terminalLine } from './terminal-text.js';

const promptContext = { output: process.stderr } as const;

/**
 * Asks a yes/no question.
 * @param ctx the command context (`yes`, `interactive`)
 * @param question.message the question, worded as the portal asks it
 * @param question.flag the flag that answers yes without a prompt (e.g. '--yes')
 * @param question.default the answer used when no prompt can be shown; absent → error
 * @returns the answer
 * @throws AppError `invalid-argument` when no prompt can be shown and there is no default
 */
export async function askConfirm(
  ctx: Pick<CommandContext, 'yes' | 'interactive'>,
  question: { message: string; flag: string; default?: boolean },
): Promise<boolean> {
  if (ctx.yes) return true;
  if (!ctx.interactive) {
    if (question.default !== undefined) return question.default;
    throw usageError(`${question.message} No terminal to ask in: pass ${question.flag} to answer yes.`, { flag: question.flag });
  }
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message: terminalLine(question.message), default: question.default }, promptContext);
}

/**
 * Asks for a text value that was not given as a flag.
 * @param ctx the command context
 * @param question.message the prompt text
 * @param question.flag the flag that gives the value (named in the error)
 * @param question.default the value used when no prompt can be shown; absent → error
 * @param question.secret mask the input (passwords)
 * @returns the entered text
 * @throws AppError `invalid-argument` ('Missing --flag …') when no prompt can be shown and there is no default
 */
export async function askText(
  ctx: Pick<CommandContext, 'interactive'>,
  question: { message: string; flag: string; default?: string; secret?: boolean },
): Promise<string> {
  if (!ctx.interactive) {
    if (question.default !== undefined) return question.default;
    throw usageError(`Missing ${question.flag}: pass it on the command line (no prompt without a terminal, or with --json/--yes).`, {
      flag: question.flag,
    });
  }
  const { input, password } = await import('@inquirer/prompts');
  const message = terminalLine(question.message);
  if (question.secret) return password({ message, mask: '*' }, promptContext);
  return input({ message, default: question.default }, promptContext);
}
