import { lookalikeKey, readings } from "./reading.ts";
import { prescriptionOnlyMedicines } from "../../app/content/medicines.ts";
import { formatGBP } from "../../app/content/money.ts";

/**
 * Medicines by name and prices (decisions 136 and 174), found in the text as a reader sees it:
 * a prompt to check, so it errs towards warning.
 */
type AnnouncementWarning = { medicines: string[]; prices: string[] };

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const squeeze = (key: string) => key.replace(/[ -]/g, "");

/** The list's own spelling of each medicine, by its look-alike key without spaces. */
const medicineByKey = new Map(prescriptionOnlyMedicines.map((m) => [squeeze(lookalikeKey(m)), m]));
/** Longest first, so "testosterone gel" is one medicine, not "testosterone" and a word. */
const medicineWords = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${[...prescriptionOnlyMedicines]
    .map((m) => lookalikeKey(m).split(" ").map(escape).join("[ -]?"))
    .sort((a, b) => b.length - a.length)
    .join("|")})s?(?![\p{L}\p{N}])`,
  "gu",
);

const UNITS =
  "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen".split(
    " ",
  );
const TENS = "twenty thirty forty fifty sixty seventy eighty ninety".split(" ");
const NUMBER_WORD = `(?:${[...UNITS, ...TENS, "fourty", "hundred", "thousand"].join("|")})`;
/** "forty-five", "a hundred and twenty", "ninety nine", "two thousand". */
const IN_WORDS = String.raw`(?:a[ -](?=hundred|thousand))?${NUMBER_WORD}(?:(?: and |[ -])${NUMBER_WORD})*`;

/** The value of number words matched by IN_WORDS. */
function wordsValue(words: string): number {
  let total = 0;
  let group = 0;
  for (const word of words.toLowerCase().replaceAll("fourty", "forty").split(/[ -]+/)) {
    if (word === "hundred") group = (group || 1) * 100;
    else if (word === "thousand") [total, group] = [total + (group || 1) * 1000, 0];
    else if (UNITS.includes(word)) group += UNITS.indexOf(word);
    else if (TENS.includes(word)) group += (TENS.indexOf(word) + 2) * 10;
  }
  return total + group;
}

/** Bounded, so a long run of digits costs a regular expression no more than a short one. */
const AMOUNT = String.raw`\d{1,9}(?:,\d{3}){0,3}(?:\.\d{1,4})?`;
const SYMBOL_OF: Record<string, string> = {
  pence: "£",
  pound: "£",
  quid: "£",
  euro: "€",
  dollar: "$",
  buck: "$",
};
const CURRENCY_WORD = String.raw`(?:pounds?|quid|pence|euros?|dollars?|bucks?)`;
const PERIOD = String.raw`(?:per|a|an|each|every|\/) ?(?:month|week|year|day|dose|injection|prescription)`;

/** One pass, so "£40pcm" is one price, not two; named groups say what to show. */
const PRICES = new RegExp(
  [
    String.raw`[£€$] ?${AMOUNT}(?: ?(?:pcm|p\/m))?`,
    String.raw`\b(?:GBP|EUR|USD) ?${AMOUNT}`,
    String.raw`\b${AMOUNT} ?(?:pounds?|quid|euros?|dollars?|bucks|GBP|EUR|USD|pcm|€)(?![\p{L}])`,
    String.raw`\b${AMOUNT} ?${PERIOD}\b`,
    String.raw`\b(?<pence>\d{1,9})(?:p| pence)\b`,
    String.raw`(?<symbol>[£€$]) ?(?<symbolWords>${IN_WORDS})\b`,
    String.raw`\b(?<words>${IN_WORDS}) (?<currency>${CURRENCY_WORD})\b`,
  ].join("|"),
  "giu",
);

const money = (symbol: string, amount: number) => symbol + formatGBP(amount).slice(1);

/** The price as read, with its figure where it was written in words or pence. */
function priceShown(match: RegExpMatchArray): string {
  const { pence, symbol, symbolWords, words, currency } = match.groups ?? {};
  const text = match[0];
  if (pence !== undefined) return `${text} (${money("£", Number(pence) / 100)})`;
  if (symbol && symbolWords) return `${text} (${money(symbol, wordsValue(symbolWords))})`;
  if (words && currency) {
    const unit = currency.toLowerCase().replace(/s$/, "");
    const amount = wordsValue(words) / (unit === "pence" ? 100 : 1);
    return `${text} (${money(SYMBOL_OF[unit] ?? "£", amount)})`;
  }
  return text;
}

const unique = (found: string[]) => [...new Set(found)];

export function announcementWarning(subject: string, body: string): AnnouncementWarning | null {
  const texts = [subject, body].map(readings);
  const medicines = unique(
    texts
      .flatMap(({ spaced, joined }) => [spaced, joined])
      .flatMap((reading) =>
        [...lookalikeKey(reading).matchAll(medicineWords)].map((m) =>
          (medicineByKey.get(squeeze(m[1]!)) ?? m[1]!).toLowerCase(),
        ),
      ),
  );
  const prices = unique(
    texts.flatMap(({ spaced }) => [...spaced.matchAll(PRICES)].map(priceShown)),
  );
  return medicines.length === 0 && prices.length === 0 ? null : { medicines, prices };
}
