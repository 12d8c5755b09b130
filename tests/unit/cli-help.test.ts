// Every CLI command's --help shows an example: the commands are built and their help rendered
// in this process (no CLI run; the CLI tests run the real thing).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { doctorCommand } from '../../cli/src/commands/doctor.js';
import { exportCommand, importCommand } from '../../cli/src/commands/export.js';
import { filesCommand } from '../../cli/src/commands/files/index.js';
import { modelsCommand } from '../../cli/src/commands/models/index.js';
import { projectsCommand } from '../../cli/src/commands/projects/index.js';
import { seedCommand } from '../../cli/src/commands/seed.js';
import { serveCommand } from '../../cli/src/commands/serve.js';
import { usersCommand } from '../../cli/src/commands/users/index.js';
import { validateCommand } from '../../cli/src/commands/validate.js';

describe('help', () => {
  it('every command shows an example in its --help', () => {
    const missing: string[] = [];
    const walk = (cmd: Command, path: string[]) => {
      for (const sub of cmd.commands) {
        const name = [...path, sub.name()];
        if (sub.commands.length > 0) walk(sub, name);
        else {
          let help = '';
          sub.configureOutput({ writeOut: (s) => (help += s), writeErr: (s) => (help += s) });
          sub.outputHelp();
          if (!/Examples?:\n\s+\$ catalog /.test(help)) missing.push(name.join(' '));
        }
      }
    };
    const all = [usersCommand, projectsCommand, modelsCommand, filesCommand, validateCommand];
    all.push(seedCommand, serveCommand, exportCommand, importCommand, doctorCommand);
    const root = new Command('catalog');
    for (const c of all) root.addCommand(c);
    walk(root, []);
    expect(missing).toEqual([]);
  });
});
