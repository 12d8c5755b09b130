// What the readers of findings write out: the findings CSV (every field with a line break quoted,
// formulas escaped at the start of the field and of each line in it), the rows of a malformed
// stored finding (shown with what it has, never an error), and the CLI's terminal-safe text
// (no escape sequence or control character, one line per table row).
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FindingModelFacts } from '@shared/annotations.js';
import { findingFacts, findingRows, findingsCsv, readableFinding } from '@shared/annotations.js';
import type { Annotation } from '@shared/types.js';
import { formatTable, printOutcome, type ActionResult } from '../../cli/src/lib/output.js';
import { AppError } from '@shared/errors.js';
import { LINE_BREAK_MARK, terminalLine, terminalText } from '../../cli/src/lib/terminal-text.js';

const models = new Map<string, FindingModelFacts>([
  ['m1', { name: 'Survey', publicId: 'TWR-1', captureDate: '2025-06-01', unitsPerMetre: 2 }],
]);

/** A well-formed point finding m1_{seq} with `fields` over it. */
function finding(seq: number, fields: Partial<Annotation> = {}): Annotation {
  return {
    id: `m1_${seq}`,
    modelId: 'm1',
    projectId: 'p1',
    seq,
    kind: 'point',
    points: [{ x: 1, y: 2, z: 3 }],
    measure: null,
    up: null,
    title: `Finding ${seq}`,
    note: '',
    category: 'crack',
    severity: 3,
    status: 'open',
    photos: [],
    author_uid: 'uid-1',
    author_email: 'a@example.com',
    created_at: '2025-07-01T10:00:00.000Z',
    last_updated: null,
    followUpOf: null,
    changeRegion: null,
    ...fields,
  };
}

/** A stored finding of any shape (what a backend may hold), typed as the readers receive it. */
const stored = (fields: Record<string, unknown>): Annotation => ({ ...finding(1), ...fields }) as unknown as Annotation;

/** The CSV of one finding with `title` and `note`: its data record (header and final CRLF cut). */
function record(title: string, note = ''): string {
  const csv = findingsCsv(findingRows([finding(1, { title, note })], models));
  expect(csv.endsWith('\r\n')).toBe(true);
  return csv.slice(csv.indexOf('\r\n') + 2, -2);
}

/** The CSV with every quoted field cut out: what a reader sees outside quotes. */
const outsideQuotes = (csv: string): string => csv.replace(/"(?:[^"]|"")*"/g, '""');

describe('findingsCsv quoting and formula escaping', () => {
  it.each([
    ['a lone LF', 'Rust on bolt\nnext', '"Rust on bolt\nnext"'],
    ['a lone CR', 'Rust on bolt\rnext', '"Rust on bolt\rnext"'],
    ['CRLF', 'Rust on bolt\r\nnext', '"Rust on bolt\r\nnext"'],
    ['a formula after a LF', 'Rust on bolt\n=2+3', `"Rust on bolt\n'=2+3"`],
    ['a formula after a CR', 'Rust\r+SUM(A1)', `"Rust\r'+SUM(A1)"`],
    ['a formula after CRLF', 'Rust\r\n@cmd', `"Rust\r\n'@cmd"`],
    ['- after a break, then another line', 'a\n-1\nb\n@x', `"a\n'-1\nb\n'@x"`],
    ['a tab-prefixed formula after a break', 'a\n\t=1', `"a\n'\t=1"`],
    ['a CR then a formula after a LF', 'a\n\r=1', `"a\n\r'=1"`],
    ['a full-width = after a break', 'a\n\uFF1D1', `"a\n'\uFF1D1"`],
    ['a tab-prefixed formula at the start', '\t=1+1', `'\t=1+1`],
    ['a CR at the start, a formula after it', '\r=1', `"'\r'=1"`],
    ['a formula at the start and after a break', '=1\n=2', `"'=1\n'=2"`],
    ['a sign inside a line', 'a=b\nc+d', '"a=b\nc+d"'],
  ])('%s: the title is written as %j', (_name, title, written) => {
    const line = record(title);
    expect(line.split(',').slice(0, 4)).toEqual(['F-1', 'Survey', 'TWR-1', '2025-06-01']);
    expect(line.slice('F-1,Survey,TWR-1,2025-06-01,'.length)).toMatch(
      new RegExp(`^${written.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')},Crack,`),
    );
    // Outside quotes the record holds no line break: a spreadsheet reads one row.
    expect(outsideQuotes(line)).not.toMatch(/[\r\n]/);
  });

  it('a field with the delimiter or a quote is quoted, quotes doubled', () => {
    expect(record('Rust, heavy', 'said "bad"')).toContain(',"Rust, heavy",');
    expect(record('x', 'said "bad"')).toContain(',"said ""bad""",m1_1');
  });

  it('a number field (severity) is written as the number, not escaped or quoted; an unknown severity is empty', () => {
    const csv = findingsCsv(findingRows([finding(1, { severity: 4 }), stored({ id: 'm1_2', seq: 2, severity: -1 })], models));
    const [, first, second] = csv.split('\r\n');
    expect(first).toContain(',Crack,4,Open,');
    expect(second).toContain(',Crack,,Open,');
  });

  it('a note with many lines keeps one record per finding', () => {
    const csv = findingsCsv(findingRows([finding(1, { note: 'one\ntwo\rthree\r\n=four' }), finding(2)], models));
    expect(outsideQuotes(csv).split('\r\n')).toHaveLength(4); // header, 2 records, ''
  });
});

describe('readableFinding and findingRows on malformed stored findings', () => {
  const malformed: Array<[string, Record<string, unknown>]> = [
    ['status null', { status: null }],
    ['points ["x"]', { points: ['x'] }],
    ['points [{}]', { points: [{}] }],
    ['points [null]', { points: [null] }],
    ['points not a list', { points: 'x' }],
    ['points with a string coordinate', { points: [{ x: '1', y: 2, z: 3 }], measure: 'distance' }],
    ['created_at a map', { created_at: { seconds: 1, nanoseconds: 0 } }],
    ['created_at junk text', { created_at: 'yesterday' }],
    ['up junk', { up: 'x'.repeat(1000), measure: 'height' }],
    ['photos [{…}]', { photos: [{ img: 'a.jpg' }] }],
    ['photos a string', { photos: 'a.jpg' }],
    ['title an object', { title: { html: '<b>' } }],
    ['title null', { title: null }],
    ['note a list', { note: ['a'] }],
    ['category unknown', { category: 'rust' }],
    ['category a prototype key', { category: 'constructor', status: '__proto__' }],
    ['severity a string', { severity: '3' }],
    ['severity 9', { severity: 9 }],
    ['severity NaN-like', { severity: null }],
    ['seq missing', { seq: undefined }],
    ['seq a string', { seq: 'x', id: 'junk' }],
    [
      'measure an array',
      {
        points: [
          { x: 0, y: 0, z: 0 },
          { x: 1, y: 0, z: 0 },
        ],
        measure: ['polyline'],
      },
    ],
    ['followUpOf a string', { followUpOf: 'm0_1' }],
    ['author fields odd', { author_uid: 5, author_email: { a: 1 } }],
    ['everything missing', { id: 'm1_4', modelId: undefined, seq: undefined, points: undefined, title: undefined, photos: undefined }],
  ];

  it.each(malformed)('%s: a row of strings (and a number or null severity), no error', (_name, fields) => {
    const rows = findingRows([stored(fields), finding(2)], models);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      for (const [key, value] of Object.entries(row)) {
        if (key === 'severity') expect(value === null || typeof value === 'number').toBe(true);
        else if (key === 'seq') expect(Number.isInteger(value)).toBe(true);
        else if (key === 'captureDate') expect(value === null || typeof value === 'string').toBe(true);
        else expect(typeof value, key).toBe('string');
      }
    }
    expect(() => findingsCsv(rows)).not.toThrow();
    expect(findingFacts(readableFinding(stored(fields)))).toMatch(/^.+ · Severity .+ · .+$/);
  });

  it('shows what can be shown: unknown category and status as stored, missing ones empty, bad points skipped', () => {
    const [row] = findingRows(
      [stored({ status: null, category: 'rust', severity: '3', created_at: { a: 1 }, photos: ['a.jpg', {}] })],
      models,
    );
    expect(row).toMatchObject({
      number: 'F-1',
      status: '',
      category: 'rust',
      severity: null,
      created: '',
      photos: 'a.jpg',
      point: '(1, 2, 3)',
    });
    const [proto] = findingRows([stored({ category: 'constructor', status: 'toString' })], models);
    expect(proto).toMatchObject({ category: 'constructor', status: 'toString' });
    const mixed = readableFinding(stored({ points: [{ x: 0, y: 0, z: 0, extra: 'x' }, 'x', { x: 3, y: 4, z: 0 }], measure: 'distance' }));
    // The good points are kept (extra keys dropped); the measurement over a changed list is not shown.
    expect(mixed.points).toEqual([
      { x: 0, y: 0, z: 0 },
      { x: 3, y: 4, z: 0 },
    ]);
    expect(mixed).toMatchObject({ kind: 'polyline', measure: null });
    expect(readableFinding(stored({ seq: 'x', id: 'm1_12' })).seq).toBe(12);
    expect(findingRows([stored({ seq: null, id: 'odd' })], models)[0]).toMatchObject({ number: 'F-?', seq: 0 });
  });

  it('a well-formed finding reads as it is stored', () => {
    const good = finding(3, {
      kind: 'polyline',
      points: [
        { x: 0, y: 0, z: 0 },
        { x: 0, y: 2, z: 0 },
      ],
      measure: 'height',
      up: { x: 0, y: 1, z: 0 },
      photos: ['a.jpg'],
      followUpOf: { annotationId: 'm0_1', modelId: 'm0' },
      changeRegion: { referenceModelId: 'm0', regionId: 3, maxDistance: -0.2 },
    });
    expect(readableFinding(good)).toEqual(good);
    // a finding stored before change regions reads with none; a malformed one is dropped
    expect(readableFinding(stored({ changeRegion: undefined })).changeRegion).toBeNull();
    for (const changeRegion of [
      'region 3',
      { referenceModelId: 'm0', regionId: 0, maxDistance: 1 },
      { referenceModelId: 7, regionId: 1, maxDistance: 1 },
    ]) {
      expect(readableFinding(stored({ changeRegion })).changeRegion).toBeNull();
    }
    expect(findingFacts(good)).toBe('Crack · Severity 3 · Moderate · Open');
    expect(findingFacts(readableFinding(stored({ status: null, severity: 0 })))).toBe('Crack · Severity — · —');
  });
});

describe('terminal-safe text', () => {
  const ESC = '\u001b';
  const hostile = `Rust${ESC}[2J${ESC}[H on${ESC}]0;owned title\u0007 bolt${ESC}]8;;http://x${ESC}\\link${ESC}]8;;${ESC}\\ \u009b31mred\u0007\u007f\u0000\u202eevil`;

  it('removes escape sequences (CSI, OSC with BEL or ST, C1 CSI) and every control character', () => {
    expect(terminalLine(hostile)).toBe('Rust on boltlink redevil');
    expect(terminalText(hostile)).toBe('Rust on boltlink redevil');
    // pieces of a sequence split by something removed do not join into a new one
    expect(terminalLine(`${ESC}${ESC}[0m[2J`)).toBe('[2J');
    expect(terminalLine(`a${ESC}\n[2J`)).toBe(`a${LINE_BREAK_MARK}[2J`);
  });

  it('one line: line breaks are shown as a mark, tabs as spaces', () => {
    expect(terminalLine('a\nb\r\nc\rd\u2028e\tf')).toBe(`a${LINE_BREAK_MARK}b${LINE_BREAK_MARK}c${LINE_BREAK_MARK}d${LINE_BREAK_MARK}e f`);
    expect(terminalLine(null)).toBe('');
    expect(terminalLine(42)).toBe('42');
  });

  it('several lines: LF kept, a lone CR or CRLF written as LF, tabs kept', () => {
    expect(terminalText('a\r\nb\rc\n\td')).toBe('a\nb\nc\n\td');
  });

  it('leaves ordinary text alone', () => {
    for (const text of ['Crack at weld 3', 'Größe · 3 m²', '東京タワー', 'e\u0301', 'a=b; "q"']) expect(terminalLine(text)).toBe(text);
  });

  it('formatTable: every row one line, no control character, columns padded to the cleaned width', () => {
    const table = formatTable(
      ['TITLE', 'STATUS'],
      [
        [hostile, 'Open'],
        ['two\nlines\tand tab', null],
        ['ok', undefined],
      ],
    );
    const lines = table.split('\n');
    expect(lines).toEqual([
      'TITLE                     STATUS',
      'Rust on boltlink redevil  Open',
      `two${LINE_BREAK_MARK}lines and tab`,
      'ok',
    ]);
    // eslint-disable-next-line no-control-regex -- the check is that no control character is left
    expect(table).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/);
  });
});

describe('printOutcome: human output terminal-safe, data formats and --json exact', () => {
  const ESC = '\u001b';
  const hostile = `a${ESC}[2Jb\r\nc\u009b31m`;
  let isTTY: boolean | undefined;

  /** What printOutcome writes on stdout and stderr with stdout a terminal or not. */
  function printed(json: boolean, outcome: Parameters<typeof printOutcome>[1], tty: boolean): { out: string; err: string } {
    let out = '';
    let err = '';
    isTTY = process.stdout.isTTY;
    process.stdout.isTTY = tty;
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => ((err += String(chunk)), true));
    try {
      printOutcome(json, outcome);
    } finally {
      vi.restoreAllMocks();
      process.stdout.isTTY = isTTY as boolean;
    }
    return { out, err };
  }
  const ok = (output: ActionResult) => ({ ok: true as const, output });

  afterEach(() => vi.restoreAllMocks());

  it('human text and the summary are cleaned (the summary on one line); CSV to a pipe is exact, on a terminal cleaned', () => {
    expect(printed(false, ok({ result: null, text: hostile, summary: `Created ${hostile}` }), false)).toEqual({
      out: 'ab\nc\n',
      err: `Created ab${LINE_BREAK_MARK}c\n`,
    });
    expect(printed(false, ok({ result: null, text: hostile, data: 'csv' }), false).out).toBe(`${hostile}\n`);
    expect(printed(false, ok({ result: null, text: hostile, data: 'csv' }), true).out).toBe('ab\nc\n');
  });

  it('JSON is exact: a --format json text even on a terminal, and --json', () => {
    const text = JSON.stringify({ title: hostile });
    expect(printed(false, ok({ result: null, text, data: 'json' }), true).out).toBe(`${text}\n`);
    expect(printed(true, ok({ result: { title: hostile }, text: 'ignored' }), true).out).toBe(
      `${JSON.stringify({ status: 'ok', result: { title: hostile } })}\n`,
    );
  });

  it('error messages are cleaned in human mode and exact in --json', () => {
    const error = new AppError('not-found', `Model ${hostile} not found`);
    expect(printed(false, { ok: false, error }, true).err).toBe('Error: Model ab\nc not found\n');
    expect(JSON.parse(printed(true, { ok: false, error }, true).out).error.message).toBe(`Model ${hostile} not found`);
  });
});
