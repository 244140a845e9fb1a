import { prescriptionOnlyMedicines } from "../../app/content/treatments.ts";

/** Medicines by name and prices (decision 136): a prompt to check, so it errs towards warning. */
type AnnouncementWarning = { medicines: string[]; prices: string[] };

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

const medicineWords = new RegExp(
  `\\b(?:${prescriptionOnlyMedicines.map(escape).join("|")})\\b`,
  "giu",
);

const AMOUNT = String.raw`\d[\d,]*(?:\.\d+)?`;
/** One pass, so "£40pcm" is one price, not two. */
const PRICES = new RegExp(
  [
    String.raw`£\s?${AMOUNT}(?:\s?(?:pcm|p\/m))?`,
    String.raw`\bGBP\s?${AMOUNT}`,
    String.raw`\b${AMOUNT}\s?(?:pounds?|quid|GBP|pcm)\b`,
    String.raw`\b${AMOUNT}\s?(?:per|a|an|each|every|\/)\s?(?:month|week|year|day|dose|injection|prescription)\b`,
  ].join("|"),
  "giu",
);

const unique = (found: string[]) => [...new Set(found.map((f) => f.trim()))];

export function announcementWarning(subject: string, body: string): AnnouncementWarning | null {
  const text = `${subject}\n${body}`.normalize("NFKC");
  const medicines = unique([...text.matchAll(medicineWords)].map((m) => m[0].toLowerCase()));
  const prices = unique([...text.matchAll(PRICES)].map((m) => m[0]));
  return medicines.length === 0 && prices.length === 0 ? null : { medicines, prices };
}
