/**
 * `catalog models …` lives in `./models/` (one file per subcommand, `./models/index.ts` registers
 * them). This re-export keeps `commands/models.js` importable for modules that name the old file.
 */
export * from './models/index.js';
