/**
 * The one output wrapper of the CLI. A command's action parses its options with a
 * zod schema, does its work and returns data; this module prints it:
 * - human mode: a summary line on stderr, the data (text or JSON) on stdout;
 * - `--json`: ONLY `{"status":"ok","result":…}` or `{"status":"error","error":{"code","message"}}`
 *   on stdout (progress may still go to stderr).
 * Exit codes: 0 ok, 1 expected error (AppError, invalid options), 2 unexpected error.
 * Human output is made safe for a terminal (`terminal-text.ts`: no escape sequences or other
 * control characters from stored text); `--json` and data formats (a command's JSON or CSV
 * written to a pipe or file) stay byte for byte.
 */
import type { Command } from 'commander';
import { CommanderError } from 'commander';
import { z } from 'zod';
import { AppError, ErrorCode, errorMessage, isAppError } from '@shared/errors.js';
import { formatIsoDate } from '@shared/format.js';
import type { ModelMetadata } from '@shared/types.js';
import { terminalLine, terminalText } from './terminal-text.js';

/** Exit codes of the CLI. */
export const ExitCode = { ok: 0, expected: 1, unexpected: 2 } as const;

/** What every action receives besides its parsed input. */
export interface CommandContext {
  /** `--json`: machine output only, no prompts. */
  readonly json: boolean;
  /** `--yes`: answer yes to every question, no prompts. */
  readonly yes: boolean;
  /** True when prompts may be shown (a TTY, neither `--json` nor `--yes`). */
  readonly interactive: boolean;
  /** Writes a human line on stderr. */
  log(line: string): void;
  /** Registers a cleanup run after the action, even when it fails (close backends…). */
  onCleanup(fn: () => unknown): void;
}

/** What an action returns. */
export interface ActionResult<T = unknown> {
  /** The data: `result` of the JSON output. */
  result: T;
  /** Human rendering of the data for stdout (default: the result as indented JSON). */
  text?: string;
  /**
   * `text` is a data format the user asked for (`--format json|csv`): printed byte for byte, as a
   * file would hold it. JSON escapes every control character itself; CSV carries them raw, so CSV
   * shown on a terminal (stdout a TTY) gets the terminal-safe treatment of other human text.
   * Without it, `text` is human text and always made terminal-safe.
   */
  data?: 'json' | 'csv';
  /** One human line for stderr (e.g. 'Created project …'); printed terminal-safe, on one line. */
  summary?: string;
  /** For long-running commands (`serve`): the output is printed, then this is awaited. */
  keepAlive?: Promise<void>;
  /**
   * A partial failure (e.g. some models of a batch failed): the result is still printed, the
   * exit code is 1 and `--json` prints `{"status":"error","error":…,"result":…}`.
   */
  failure?: { code: string; message: string };
}

/** Options every command accepts. */
export interface CommonOptions {
  json?: boolean;
  yes?: boolean;
}

/**
 * Adds `--json` and `-y, --yes` to a command.
 * @returns the same command, for chaining
 */
export function addCommonOptions(cmd: Command): Command {
  return cmd
    .option('--json', 'print only a JSON result on stdout; never prompt')
    .option('-y, --yes', 'answer yes to every question; never prompt');
}

/** camelCase option key → its flag (`publicId` → `--public-id`). */
export function flagOf(key: string): string {
  return `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

function describeZodError(error: z.ZodError, argNames: readonly string[]): string {
  return error.issues
    .map((issue) => {
      const key = issue.path[0];
      if (typeof key !== 'string') return issue.message;
      const name = argNames.includes(key) ? `<${key}>` : flagOf(key);
      return `${name}: ${issue.message}`;
    })
    .join('\n');
}

/** The `{code, message}` printed for an error, and the exit code it gives. */
export function describeError(error: unknown, argNames: readonly string[] = []): { code: string; message: string; exitCode: number } {
  if (isAppError(error)) return { code: error.code, message: error.message, exitCode: ExitCode.expected };
  if (error instanceof z.ZodError) {
    return { code: ErrorCode.InvalidArgument, message: describeZodError(error, argNames), exitCode: ExitCode.expected };
  }
  if (error instanceof CommanderError) return { code: ErrorCode.InvalidArgument, message: error.message, exitCode: ExitCode.expected };
  const message = errorMessage(error);
  return { code: ErrorCode.Internal, message: `Unexpected error: ${message}`, exitCode: ExitCode.unexpected };
}

/**
 * What human mode prints on stdout: a data format as it is (CSV made terminal-safe when stdout
 * is a terminal), the result as indented JSON when there is no text, other text terminal-safe.
 */
function humanBody(text: string | undefined, data: ActionResult['data'], result: unknown): string {
  if (text === undefined) return result === undefined ? '' : JSON.stringify(result, null, 2);
  if (data === 'json' || (data === 'csv' && process.stdout.isTTY !== true)) return text;
  return terminalText(text);
}

/** Prints a result or an error the one way the CLI does (see the module comment). */
export function printOutcome(
  json: boolean,
  outcome: { ok: true; output: ActionResult } | { ok: false; error: unknown; argNames?: readonly string[] },
): number {
  if (outcome.ok) {
    const { result, text, data, summary, failure } = outcome.output;
    const body = humanBody(text, data, result);
    if (failure) {
      if (json) process.stdout.write(`${JSON.stringify({ status: 'error', error: failure, result: result ?? null })}\n`);
      else {
        if (body !== '') process.stdout.write(body.endsWith('\n') ? body : `${body}\n`);
        process.stderr.write(`Error: ${terminalText(failure.message)}\n`);
      }
      return ExitCode.expected;
    }
    if (json) {
      process.stdout.write(`${JSON.stringify({ status: 'ok', result: result ?? null })}\n`);
    } else {
      if (summary) process.stderr.write(`${terminalLine(summary)}\n`);
      if (body !== '') process.stdout.write(body.endsWith('\n') ? body : `${body}\n`);
    }
    return ExitCode.ok;
  }
  const { code, message, exitCode } = describeError(outcome.error, outcome.argNames);
  if (json) {
    process.stdout.write(`${JSON.stringify({ status: 'error', error: { code, message } })}\n`);
  } else {
    process.stderr.write(`Error: ${terminalText(message)}\n`);
  }
  if (exitCode === ExitCode.unexpected && process.env.CATALOG_DEBUG && outcome.error instanceof Error) {
    process.stderr.write(`${outcome.error.stack ?? ''}\n`);
  }
  return exitCode;
}

/**
 * Attaches an action to a command: collects its positional arguments (by their names) and
 * options into one object, parses it with `schema` (a zod error is an expected error naming the
 * flag), runs `run`, prints the outcome and sets `process.exitCode`. `--json`/`--yes` are read
 * from the command's options (add them with {@link addCommonOptions}).
 *
 * @param cmd the commander command
 * @param schema zod schema of `{ ...positional args by name, ...options }`
 * @param run the action: returns data, throws AppError for expected failures
 * @returns the command, for chaining
 */
export function defineAction<S extends z.ZodType>(
  cmd: Command,
  schema: S,
  run: (input: z.infer<S>, ctx: CommandContext) => Promise<ActionResult>,
): Command {
  cmd.action(async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const options = command.opts<Record<string, unknown> & CommonOptions>();
    const argNames = command.registeredArguments.map((a) => a.name());
    const raw: Record<string, unknown> = { ...options };
    argNames.forEach((name, i) => {
      if (command.processedArgs[i] !== undefined) raw[name] = command.processedArgs[i];
    });
    const json = options.json === true;
    const yes = options.yes === true;
    const cleanups: Array<() => unknown> = [];
    const ctx: CommandContext = {
      json,
      yes,
      interactive: !json && !yes && process.stdin.isTTY === true && process.stderr.isTTY === true,
      log: (line) => process.stderr.write(`${terminalText(line)}\n`),
      onCleanup: (fn) => cleanups.push(fn),
    };
    let exitCode: number;
    try {
      const input = schema.parse(raw) as z.infer<S>;
      const output = await run(input, ctx);
      exitCode = printOutcome(json, { ok: true, output });
      if (output.keepAlive) await output.keepAlive;
    } catch (error) {
      exitCode = printOutcome(json, { ok: false, error, argNames });
    } finally {
      for (const fn of cleanups.reverse()) {
        try {
          await fn();
        } catch {
          // cleanup failures must not hide the outcome
        }
      }
    }
    process.exitCode = exitCode;
  });
  return cmd;
}

/** An expected error of the CLI itself (bad flag combination, missing answer): exit code 1. */
export function usageError(message: string, context: Record<string, unknown> = {}): AppError {
  return new AppError(ErrorCode.InvalidArgument, message, { context });
}

/**
 * A plain-text table for human output: columns padded to their widest cell, two spaces apart,
 * one line per row. Every cell is made safe for a terminal first ({@link terminalLine}: escape
 * sequences and control characters removed, a line break inside a cell shown as '↵', a tab as a
 * space), since cells hold stored text such as titles and names.
 * @param header the column titles
 * @param rows the cells, one array per row (as many cells as `header`; a missing or non-string
 *   cell is shown as text, '' for null or undefined)
 * @returns the table, lines joined by LF, no trailing line break
 */
export function formatTable(header: readonly string[], rows: readonly (readonly unknown[])[]): string {
  const cells = [header, ...rows].map((r) => header.map((_, i) => terminalLine(r[i])));
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i]!.length)));
  const fmt = (r: readonly string[]) =>
    r
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd();
  return cells.map(fmt).join('\n');
}

/**
 * A capture date as the CLI's human output prints it: 'YYYY-MM-DD' (`formatIsoDate`),
 * '-' when there is none. `--json` keeps the stored value (the record as it is: a script reads
 * what the portal and the API read, and a timestamp keeps its time).
 * @param value a stored `metadata.captureDate` ('YYYY-MM-DD', an ISO timestamp, null)
 */
export function captureDateText(value: string | null | undefined): string {
  return value === null || value === undefined || value.trim() === '' ? '-' : formatIsoDate(value);
}

/**
 * A model record for human output: the same record with `metadata.captureDate` as 'YYYY-MM-DD'
 * (see {@link captureDateText}; null stays null). The input is not changed.
 * @param model a model record (or any object with an optional `metadata`)
 * @returns a shallow copy with the date rewritten
 */
export function withReadableDates<T extends { metadata?: ModelMetadata | null }>(model: T): T {
  const date = model.metadata?.captureDate;
  if (date === null || date === undefined || date.trim() === '') return model;
  return { ...model, metadata: { ...model.metadata, captureDate: captureDateText(date) } };
}
