// What names, paths and messages from a repository may not carry into a terminal or a CI log. A file name or an
// object name is chosen by whoever wrote the repository: an ESC starts an ANSI/OSC sequence (set the window title,
// clear the screen, hide text), a CR rewrites the line, bidi controls reorder what a reviewer reads, and a line
// that starts with `::` (or `##[`) after white space is a workflow command to the GitHub Actions runner
// (actions/runner ActionCommand.TryParseV2 trims leading white space, then looks for `::`).
// Each output format has one escaping function: `terminalText` here for the text report, `escapeData` /
// `escapeProperty` in github.ts (after `terminalText`), JSON and SARIF by JSON.stringify.

/** C0 and C1 controls but LF and TAB, DEL, and the Unicode line separators and bidi controls. */
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, LF and TAB too: for one-line fields. */
const UNSAFE_ONE_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

function visible(char: string): string {
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control character shown as an escape (`\x1b`, `\u202e`): safe to print to a terminal. Line
 * feeds stay (messages are wrapped by paragraph) unless `oneLine`; a backslash is left as it is.
 */
export function terminalText(text: string, oneLine = false): string {
  return text.replace(oneLine ? UNSAFE_ONE_LINE : UNSAFE, visible);
}

/** `::` or `##[` after white space, and after colour codes (a log viewer may drop them before the runner looks). */
const COMMAND_START = /^((?:\s|\u001b\[[0-9;]*m)*)(::|##\[)/;

/**
 * A report line that the Actions runner would take for a workflow command (it starts with `::` or `##[` after
 * white space) gets a backslash in front, so it is printed, not run.
 */
export function notACommand(line: string): string {
  return line.replace(COMMAND_START, '$1\\$2');
}
