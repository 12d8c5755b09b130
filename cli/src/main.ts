/**
 * The `catalog` CLI entry point: builds the program from one command per file and
 * runs it. Commands print through the one output wrapper (`lib/output.ts`); this file only adds
 * commands and turns commander's own errors (unknown option, missing argument) into exit code 1
 * (and the JSON error shape with `--json`).
 */
import { Command, CommanderError } from 'commander';
import { findingsCommand } from './commands/findings/index.js';
import { doctorCommand } from './commands/doctor.js';
import { exportCommand, importCommand } from './commands/export.js';
import { filesCommand } from './commands/files/index.js';
import { modelsCommand } from './commands/models/index.js';
import { projectsCommand } from './commands/projects/index.js';
import { seedCommand } from './commands/seed.js';
import { serveCommand } from './commands/serve.js';
import { usersCommand } from './commands/users/index.js';
import { validateCommand } from './commands/validate.js';
import { ExitCode, printOutcome } from './lib/output.js';
import { packageVersion } from './lib/package-root.js';

/**
 * Builds the `catalog` program with every command.
 * @returns the commander program (not yet parsed)
 */
export function buildProgram(): Command {
  const program = new Command('catalog')
    .description(
      'Catalog and admin toolkit for 3D infrastructure-inspection models: run the embedded server, seed demo data, manage users, projects and models.',
    )
    .version(packageVersion())
    .addCommand(serveCommand)
    .addCommand(seedCommand)
    .addCommand(usersCommand)
    .addCommand(projectsCommand)
    .addCommand(validateCommand)
    .addCommand(modelsCommand)
    .addCommand(filesCommand)
    .addCommand(findingsCommand)
    .addCommand(exportCommand)
    .addCommand(importCommand)
    .addCommand(doctorCommand)
    .addHelpText(
      'after',
      '\nExamples:\n  $ catalog serve                      # start the server (http://127.0.0.1:8787)\n  $ catalog seed                       # demo data\n  $ catalog projects list --json\n  $ catalog models upload ./scan --project <id> --public-id TWR-001-2025 --name "2025 survey"\n  $ catalog models upload-many ./campaign --project TWR-001 --dry-run\n  $ catalog export ./backup && catalog import ./backup --data-dir ./other\n  $ catalog doctor\n',
    );
  const configure = (cmd: Command) => {
    cmd.exitOverride();
    cmd.showHelpAfterError('(add --help for usage)');
    for (const sub of cmd.commands) configure(sub);
  };
  configure(program);
  return program;
}

/**
 * Runs the CLI on `argv` and exits the process with the command's exit code
 * (0 ok, 1 expected error, 2 unexpected error).
 * @param argv process.argv
 */
export async function main(argv: string[] = process.argv): Promise<never> {
  // commander's own messages (unknown option…) go to stderr; with --json stdout gets the error shape
  const json = argv.includes('--json');
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
  } catch (error) {
    if (error instanceof CommanderError) {
      const helpOrVersion = ['commander.helpDisplayed', 'commander.help', 'commander.version', 'commander.executeSubCommandAsync'].includes(
        error.code,
      );
      if (helpOrVersion) process.exit(error.exitCode);
      if (json) printOutcome(true, { ok: false, error });
      process.exit(ExitCode.expected);
    }
    process.exit(printOutcome(json, { ok: false, error }));
  }
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : ExitCode.ok);
}

await main();
