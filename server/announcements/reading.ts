// Announcement text as a reader of the email sees it (decision 174): what the warning
// matches, and what may be stored.
import { remove as latinLookalikes } from "confusables";
import { decodeHTML } from "entities";

/**
 * Characters that show nothing: format controls (zero-width spaces and joiners, the word
 * joiner, the soft hyphen, bidi overrides and isolates) and the other default-ignorables
 * (Hangul fillers). Variation selectors stay: they only choose how an emoji is drawn.
 */
const INVISIBLE = String.raw`(?![\uFE00-\uFE0F\u{E0100}-\u{E01EF}])[\p{Cf}\p{Default_Ignorable_Code_Point}]`;
/** A joiner between emoji (a family, a health worker) and the tags of the England flag. */
const EMOJI_SPELLING = String.raw`\p{Extended_Pictographic}[\uFE0F\p{EMod}]?\u200D(?=\p{Extended_Pictographic})|\u{1F3F4}[\u{E0020}-\u{E007F}]+`;
const INVISIBLE_OUTSIDE_EMOJI = new RegExp(`(${EMOJI_SPELLING})|${INVISIBLE}`, "gu");

/** The text with its invisible characters taken out, emoji left whole. */
export const withoutInvisible = (text: string) =>
  text.replace(INVISIBLE_OUTSIDE_EMOJI, (_, emoji?: string) => emoji ?? "");

export const hasInvisible = (text: string) => withoutInvisible(text) !== text;

const LINE_BREAK = String.raw`(?:\r\n|[\n\v\f\r\u0085\u2028\u2029])`;

/**
 * Two readings of the text, each on one line: `spaced` reads a line break as a space;
 * `joined` reads it, and a hyphen before it, as nothing, for a word split across lines.
 * Both have HTML entities decoded, invisible characters removed, compatibility forms
 * (full-width letters, ligatures, non-breaking spaces) made plain and accents dropped.
 */
export function readings(text: string): { spaced: string; joined: string } {
  const plain = decodeHTML(text)
    .replace(new RegExp(INVISIBLE, "gu"), "")
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .normalize("NFC");
  const oneLine = (t: string) => t.replace(/\s+/gu, " ").trim();
  return {
    spaced: oneLine(plain),
    joined: oneLine(
      plain.replace(new RegExp(String.raw`\p{Pd}?[ \t]*${LINE_BREAK}[ \t]*`, "gu"), ""),
    ),
  };
}

/**
 * Letters folded to the Latin letters they look like (Cyrillic е and о, Greek Ν), lower
 * case, with 0 read as o and 1, l and | as i: for comparing names, not for showing.
 */
export const lookalikeKey = (text: string) =>
  latinLookalikes(text).toLowerCase().replace(/0/g, "o").replace(/[1l|]/g, "i");
