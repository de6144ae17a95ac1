/** Messages about what a loader was given: one line each, quoting nothing of a file's text. No Node imports. */

/**
 * What went wrong in `text` and, when the engine says where, on which line and column. V8 quotes
 * the start of the text in some messages (`Unexpected token 'r', "root:x:0:0"... is not valid
 * JSON`), newlines and all: that quote is dropped, and for a file the caller did not name
 * (`foreign`) so is the offending character.
 */
export function jsonError(e: unknown, text: string, foreign: boolean): { message: string; line?: number } {
  const raw = e instanceof Error ? e.message : String(e);
  const at = /\bat position (\d+)/.exec(raw);
  let what: string;
  const token = /^Unexpected token '(.)'/su.exec(raw) ?? /^Unexpected token (.) in JSON/su.exec(raw);
  if (token) what = foreign ? 'an unexpected character' : `an unexpected character ${JSON.stringify(token[1])}`;
  else if (/end of JSON input/i.test(raw)) what = 'the text ends early (truncated?)';
  else what = raw.replace(/\s*in JSON at position \d+.*$/s, '').replace(/\s*after JSON at position \d+.*$/s, ' after the JSON value').replace(/"[^]*$/, '').replace(/\s+/g, ' ').trim();
  if (at === null) return { message: `malformed JSON: ${what}` };
  const pos = Number(at[1]);
  let line = 1;
  let lineStart = 0;
  for (let p = text.indexOf('\n'); p >= 0 && p < pos; p = text.indexOf('\n', p + 1)) {
    line++;
    lineStart = p + 1;
  }
  return { message: `malformed JSON at line ${line}, column ${pos - lineStart + 1}: ${what}`, line };
}

/**
 * True for a one-line string ending in a map file's extension: a path passed where the file's
 * contents belong (`parseTiled('maps/a.tmx')`), which deserves better than "malformed JSON".
 */
export function looksLikePath(text: string): boolean {
  return text.length < 4096 && !/[\n<{[]/.test(text) && /\.(tmx|tmj|tsx|tsj|tx|tj|json|xml|map|txt)\s*$/i.test(text);
}

/** The message for {@link looksLikePath}: `load` is the Node loader of the same format, which takes a path. */
export function pathNotContents(load: string): string {
  return `looks like a file path; pass the file's contents (in Node, ${load}(path) of tilenav/loaders reads the file)`;
}
