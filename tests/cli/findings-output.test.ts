// What `catalog` prints of stored user text it cannot trust: a project with a model whose
// findings were stored malformed (an escape-laden multi-line title, `status: null`, points
// ["x"] and [{}], a map `created_at`, junk `up`, `photos: [{…}]`). Writers refuse such findings
// now, so they are written straight into the server's SQLite file (the server re-reads when
// another connection commits). `findings list` for the model and the project exits 0 with
// no escape or control character and one line per row; `--format json` and `--json` keep the
// stored text exactly; `findings export --format csv` is quoted and formula-escaped; the
// model and project names in `models list` and `projects list` are cleaned the same way.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findingModelFacts, findingRows, findingsCsv } from '@shared/annotations.js';
import type { Annotation, Model } from '@shared/types.js';
import { parseJson, runCli, type CliResult } from '../support/cli.js';
import { startEmbeddedServer, type EmbeddedServer } from '../support/server.js';

const ESC = '\u001b';
const BEL = '\u0007';
/** Every control character but LF (CR too: none of the human outputs here is CSV). */
// eslint-disable-next-line no-control-regex -- the check is that no control character is printed
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const projectId = 'proj-findings-out';
const modelId = '11111111-2222-4333-8444-555555555555';
const now = '2025-07-01T10:00:00.000Z';

const project = {
  name: `Tower${ESC}[2J${ESC}[H\nSecond line`,
  structure_id: 'TWR-9',
  slug: 'tower-9',
  description: '',
  reference_model_id: null,
  created_at: now,
  last_updated: now,
};
const model = {
  publicId: 'TWR-9-2025',
  name: `Survey${ESC}]0;owned window${BEL} 2025\r\nover`,
  projectId,
  visible: true,
  modelType: '3dgs',
  files: {},
  metadata: { captureDate: '2025-06-01', annotationsCount: 4, annotationsSeq: 4 },
  created_at: now,
  last_updated: now,
};
const base = {
  modelId,
  projectId,
  kind: 'point',
  points: [{ x: 1, y: 2, z: 3 }],
  measure: null,
  up: null,
  note: '',
  category: 'corrosion',
  severity: 3,
  status: 'open',
  photos: [],
  author_uid: 'user-1',
  author_email: 'user@example.com',
  created_at: now,
  last_updated: now,
  followUpOf: null,
};
/** The findings as stored (seq 1–4), malformed each in its way. */
const findings: Array<Record<string, unknown>> = [
  { ...base, seq: 1, title: `Rust on bolt${ESC}[2J${ESC}[H${ESC}]0;pwned${BEL}\n=2+3\tend`, note: 'first\r@SUM(A1)' },
  { ...base, seq: 2, title: 'Null status', status: null, severity: 5 },
  { ...base, seq: 3, title: 'Bad points', points: ['x'], created_at: { seconds: 1 }, up: 'junk', photos: [{ img: 'a.jpg' }] },
  { ...base, seq: 4, title: 'Empty point', points: [{}], category: 'constructor', severity: '4' },
];

let server: EmbeddedServer;
let env: Record<string, string>;

/** The findings as the CLI reads them back: the stored data with its id. */
const storedFindings = (): Annotation[] => findings.map((f) => ({ ...f, id: `${modelId}_${f.seq}` }) as unknown as Annotation);

async function cli(args: string[]): Promise<CliResult> {
  const res = await runCli(args, { env });
  expect(res.exitCode, `${args.join(' ')}\n${res.stdout}\n${res.stderr}`).toBe(0);
  return res;
}

/** Human output: no escape or control character anywhere, on stdout or stderr. */
function expectClean(res: CliResult): void {
  expect(res.stdout).not.toMatch(CONTROL);
  expect(res.stderr).not.toMatch(CONTROL);
}

beforeAll(async () => {
  server = await startEmbeddedServer({ prefix: 'findings-out' });
  env = server.env;
  const db = new Database(join(server.dataDir, 'catalog.db'));
  try {
    const insert = db.prepare('INSERT INTO documents (collection, id, data, create_time, update_time) VALUES (?, ?, json(?), ?, ?)');
    db.transaction(() => {
      insert.run('projects', projectId, JSON.stringify(project), now, now);
      insert.run('models', modelId, JSON.stringify(model), now, now);
      for (const f of findings) insert.run('annotations', `${modelId}_${f.seq}`, JSON.stringify(f), now, now);
    })();
  } finally {
    db.close();
  }
}, 60_000);

afterAll(async () => {
  await server?.stop();
});

describe('catalog output of malformed and hostile stored findings', () => {
  it('findings list for the model and for the project: exit 0, no control characters, one line per finding', async () => {
    const runs = await Promise.all([
      cli(['findings', 'list', 'TWR-9-2025', '--project', 'TWR-9']),
      cli(['findings', 'list', '--project', 'TWR-9']),
    ]);
    for (const res of runs) {
      expectClean(res);
      const lines = res.stdout.trimEnd().split('\n');
      expect(lines).toHaveLength(1 + findings.length);
      expect(lines[0]).toMatch(/^FINDING\s+MODEL\s+CAPTURED\s+TITLE\s+/);
      // severity order: 5, then 3 (two), then the unknown '4' (a string) last
      expect(lines.slice(1).map((l) => l.split(/\s+/)[0])).toEqual(['F-2', 'F-1', 'F-3', 'F-4']);
      expect(lines[1]).toMatch(/^F-2\s+TWR-9-2025\s+2025-06-01\s+Null status\s+Corrosion\s+5\s+-\s+-\s+/);
      expect(lines[2]).toMatch(/^F-1\s+TWR-9-2025\s+2025-06-01\s+Rust on bolt↵=2\+3 end\s+Corrosion\s+3\s+Open\s+/);
      expect(lines[4]).toMatch(/^F-4\s+TWR-9-2025\s+2025-06-01\s+Empty point\s+constructor\s+-\s+Open\s+/);
      expect(res.stderr).toMatch(/^4 findings \((model TWR-9-2025|project TWR-9)\)$/);
    }
  });

  it('--format json and --json keep the stored findings exactly', async () => {
    const expected = storedFindings();
    const [json, wrapped] = await Promise.all([
      cli(['findings', 'list', modelId, '--format', 'json']),
      cli(['findings', 'list', '--project', 'TWR-9', '--json']),
    ]);
    expect(JSON.parse(json.stdout)).toEqual(expected);
    expect(json.stdout).toContain(JSON.stringify(findings[0]!.title)); // the escapes as JSON writes them
    expect(parseJson<Annotation[]>(wrapped.stdout)).toEqual({ status: 'ok', result: expected });
  });

  it('findings export --format csv: the report table, every line break quoted, formulas escaped on every line', async () => {
    const res = await cli(['findings', 'export', '--project', 'TWR-9', '--format', 'csv']);
    const expected = findingsCsv(findingRows(storedFindings(), findingModelFacts([{ ...model, id: modelId } as unknown as Model])));
    // execa drops stdout's final line end (CRLF here)
    expect(`${res.stdout}\r\n`).toBe(expected);
    expect(res.stdout).toContain(`,"Rust on bolt${ESC}[2J${ESC}[H${ESC}]0;pwned${BEL}\n'=2+3\tend",Corrosion,3,Open,`);
    expect(res.stdout).toContain(`,"first\r'@SUM(A1)",`);
    // outside quotes, every line break is a record end: a header and 4 rows
    expect(res.stdout.replace(/"(?:[^"]|"")*"/g, '""').split('\r\n')).toHaveLength(5);
    expect(res.stdout).not.toMatch(/(^|[^\r])\n(?!')(?=[=+\-@])/);
  });

  it('models list and projects list show stored names on one line, without escapes', async () => {
    const [models, projects] = await Promise.all([cli(['models', 'list', '--project', 'TWR-9']), cli(['projects', 'list'])]);
    expectClean(models);
    const modelLines = models.stdout.trimEnd().split('\n');
    expect(modelLines).toHaveLength(2);
    expect(modelLines[1]).toMatch(/^TWR-9-2025\s+Survey 2025↵over\s+/);
    expectClean(projects);
    const projectLines = projects.stdout.trimEnd().split('\n');
    expect(projectLines).toHaveLength(2);
    expect(projectLines[1]).toMatch(/^TWR-9\s+Tower↵Second line\s+1\s+/);
  });
});
