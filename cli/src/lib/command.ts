/**
 * One shape for every leaf command of the CLI (one file per command exporting a
 * commander `Command`; an action parses its options with a zod schema, calls a shared service and
 * returns data; one wrapper prints it). {@link leafCommand} adds `--json`/`--yes` (and with
 * `backend`, `--data-dir`/`--url`), the examples of its `--help`, and the action; a backend
 * command's action gets an `open()` that opens the backend once and closes it after the action,
 * whatever the outcome, so each action opens it where its own checks are done.
 */
import type { Command } from 'commander';
import type { z } from 'zod';
import { addBackendOptions } from './backend.js';
import type { OpenedBackend } from './backend.js';
import { backendFor } from './command-backend.js';
import { addCommonOptions, defineAction } from './output.js';
import type { ActionResult, CommandContext } from './output.js';

/**
 * The `--help` text listing a command's examples: `Example:` for one, `Examples:` for several, each
 * line `  $ catalog …` (a line starting with '(' is a note and is printed as it is).
 * @param examples command lines without the leading `$ `
 * @param before text printed first (a note on the options), ending without a newline
 * @returns the text added after the built-in help
 */
export function examplesHelp(examples: readonly string[], before = ''): string {
  const lines = examples.map((line) => (line.startsWith('(') ? `  ${line}` : `  $ ${line}`));
  return `${before}\n${examples.length === 1 ? 'Example' : 'Examples'}:\n${lines.join('\n')}\n`;
}

/** An action of a leaf command; `open` opens the backend (once) for backend commands. */
export type LeafAction<S extends z.ZodType> = (
  input: z.infer<S>,
  ctx: CommandContext,
  open: () => Promise<OpenedBackend>,
) => Promise<ActionResult>;

/** What {@link leafCommand} builds a command from. */
export interface LeafCommandSpec<S extends z.ZodType> {
  /** The commander command with its name, description, arguments and own options. */
  command: Command;
  /** Add `--data-dir` and `--url` and give the action an `open()` for the backend. */
  backend?: boolean;
  /** Schema of `{...positional arguments by name, ...options}` (spread `backendOptionsShape` for a backend command). */
  schema: S;
  /** Text added after the built-in help: examples ({@link examplesHelp}) and notes. */
  help: string;
  /** The action. */
  run: LeafAction<S>;
}

/**
 * Builds a leaf command: options, help text and action (see the module comment).
 * @param spec the command, whether it talks to the backend, its schema, help and action
 * @returns the command, ready to be added to its parent
 */
export function leafCommand<S extends z.ZodType>(spec: LeafCommandSpec<S>): Command {
  const command = addCommonOptions(spec.backend ? addBackendOptions(spec.command) : spec.command).addHelpText('after', spec.help);
  return defineAction(command, spec.schema, (input, ctx) => {
    let opened: Promise<OpenedBackend> | undefined;
    const open = (): Promise<OpenedBackend> => (opened ??= backendFor(input as Parameters<typeof backendFor>[0], ctx));
    return spec.run(input, ctx, open);
  });
}
