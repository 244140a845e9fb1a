/**
 * Characters a terminal acts on or that reorder what it shows: C0 controls, DEL,
 * C1 controls (U+009B is a one-character CSI, U+009D starts an OSC that can set the
 * window title or write the clipboard), bidirectional overrides, embeddings,
 * isolates and marks, and the Unicode line and paragraph separators.
 */
const UNSAFE =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u2028\u2029]/g;

/** What a line-oriented command may print raw: its own line breaks. */
export const LINES = /\n/y;
/**
 * What a CSV export may print raw: tab, LF and CR, its RFC 4180 record breaks and
 * the whitespace of quoted multi-line messages, so the export round-trips them.
 */
export const CSV_TEXT = /[\t\n\r]/y;

/**
 * Replaces every unsafe character with a visible escape (`\u009b`), except those
 * that `keep` matches at their position. The result is inert in any terminal,
 * and the escapes show staff that something odd was stored.
 */
export function escapeUnsafe(text: string, keep?: RegExp): string {
  return text.replace(UNSAFE, (char, offset: number) => {
    if (keep) {
      keep.lastIndex = offset;
      if (keep.test(text)) return char;
    }
    return `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** True when the text holds any unsafe character other than the ones `keep` allows. */
export function hasUnsafe(text: string, keep?: RegExp): boolean {
  return escapeUnsafe(text, keep) !== text;
}
