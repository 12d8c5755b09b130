/**
 * Text from the catalog (finding titles, model and project names, anything a user typed) made
 * safe to print on a terminal. A terminal acts on control characters: an escape sequence in a
 * stored title can clear the screen, move the cursor, set the window title or write a link, a
 * carriage return can overwrite what was printed, and a bidirectional override can reorder what
 * the reader sees. Human output passes such text through here; JSON output keeps it exact.
 */
import stripAnsi from 'strip-ansi';

/**
 * Control characters left after the escape sequences are removed: C0 except tab, line feed and
 * carriage return (handled by the callers), DEL, C1, and the bidirectional marks, embeddings,
 * overrides and isolates.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/** Line breaks: CRLF, a lone CR or LF, and Unicode's line and paragraph separators. */
const LINE_BREAK = /\r\n|\r|\n|\u2028|\u2029/g;

/** What a line break inside a table cell shows as, so the row stays one line. */
export const LINE_BREAK_MARK = '↵';

/**
 * Text for one line of a terminal (a table cell, a name in a sentence): escape sequences
 * (CSI, OSC ended by BEL or ST, DCS and the other control strings, two-byte escapes; by
 * strip-ansi) removed with their parameters, each line break shown as {@link LINE_BREAK_MARK},
 * each tab as a space, and every other control character (C0, DEL, C1, bidirectional controls)
 * removed. The result holds no control character.
 * @param text any text (a non-string is shown as `String(text)`, null and undefined as '')
 * @returns the text, safe to print on one line
 */
export function terminalLine(text: unknown): string {
  return stripAnsi(asText(text)).replace(LINE_BREAK, LINE_BREAK_MARK).replace(/\t/g, ' ').replace(CONTROL, '');
}

/**
 * Text for several lines of a terminal (a command's human output, a message): escape sequences
 * removed as in {@link terminalLine}, every line break (CRLF, a lone CR, Unicode separators)
 * written as LF, tabs kept, and every other control character removed. The result holds no
 * control character but LF and tab, so nothing in it can move the cursor back over what was
 * printed.
 * @param text any text (a non-string is shown as `String(text)`, null and undefined as '')
 * @returns the text, safe to print
 */
export function terminalText(text: unknown): string {
  return stripAnsi(asText(text)).replace(LINE_BREAK, '\n').replace(CONTROL, '');
}

function asText(text: unknown): string {
  return typeof text === 'string' ? text : text === null || text === undefined ? '' : String(text);
}
