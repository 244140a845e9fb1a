import { describe, expect, it } from "vitest";

import { announcementWarning } from "./warning.ts";
import * as pricing from "../../app/content/pricing.ts";
import { treatmentOptions } from "../../app/content/treatments.ts";

const medicinesIn = (body: string) => announcementWarning("News", body)?.medicines ?? [];
const pricesIn = (body: string) => announcementWarning("News", body)?.prices ?? [];

/** Every item /pricing prices by the month, found in whatever pricing.ts exports. */
const pricedItems = Object.values(pricing)
  .flatMap((value): unknown[] => (Array.isArray(value) ? value : []))
  .filter(
    (item): item is { name: string; monthlyPrice: number } =>
      typeof item === "object" && item !== null && "monthlyPrice" in item && "name" in item,
  );

describe("the prescription-only medicine and price warning", () => {
  it("names every medicine /pricing prices (hCG, tadalafil and whatever is added there) and every preparation on the treatments page", () => {
    expect(pricedItems.map((item) => item.name)).toEqual(
      expect.arrayContaining(["Nebido", "hCG, lower dose", "Tadalafil"]),
    );
    for (const text of [
      ...pricedItems.map(({ name }) => `New: ${name}.`),
      ...treatmentOptions.flatMap((t) => t.preparations),
    ]) {
      expect(medicinesIn(text), text).not.toEqual([]);
    }
    expect(medicinesIn("hCG and tadalafil are here")).toEqual(["hcg", "tadalafil"]);
  });

  it("reads a name as a reader sees it, whatever hides or disguises its letters", () => {
    for (const [how, text] of [
      ["a zero-width space", "Neb\u200Bido"],
      ["a zero-width joiner", "Neb\u200Dido"],
      ["a zero-width non-joiner", "Neb\u200Cido"],
      ["a word joiner", "Neb\u2060ido"],
      ["a soft hyphen", "Neb\u00ADido"],
      ["a byte-order mark", "\uFEFFNeb\uFEFFido"],
      ["a right-to-left override", "\u202ENebido\u202C"],
      ["a combining accent", "Nebi\u0301do"],
      ["an accented letter", "Nebído"],
      ["Cyrillic е and о", "N\u0435bid\u043E"],
      ["Greek Ν, ε, ι and ο", "\u039D\u03B5b\u03B9d\u03BF"],
      ["a digit 0 for o", "Nebid0"],
      ["full-width letters", "\uFF2E\uFF45\uFF42\uFF49\uFF44\uFF4F"],
      ["a numeric HTML entity", "&#78;ebido"],
      ["a named HTML entity", "Neb&iacute;do"],
      ["a hex HTML entity for a hidden character", "Neb&#x200B;ido"],
      ["a hyphen and a line break", "Ask about Neb-\nido today"],
      ["a line break inside the word", "Ask about Nebi\ndo today"],
      ["a Windows line break", "Ask about Nebi\r\ndo today"],
      ["capitals", "NEBIDO"],
    ]) {
      expect(medicinesIn(`Now: ${text}.`), how).toEqual(["nebido"]);
    }
    expect(medicinesIn("Now: \u0422\u0430d\u0430l\u0430fil"), "Cyrillic Т and а").toEqual([
      "tadalafil",
    ]);
    expect(medicinesIn("h\u200BC\u0262"), "hCG with a small-capital G").toEqual(["hcg"]);
    expect(medicinesIn("tadala\uFB01l"), "an fi ligature").toEqual(["tadalafil"]);
    expect(medicinesIn("aromatase inhibitors"), "a plural").toEqual(["aromatase inhibitor"]);
    // The longest name is the one named, once.
    expect(medicinesIn("Testosterone gel")).toEqual(["testosterone gel"]);
  });

  it("finds prices in their usual spellings and however they are written, and shows each as it reads", () => {
    for (const price of [
      "£45",
      "£ 1,200.50",
      "£40pcm",
      "45 pounds",
      "GBP 30",
      "40 per month",
      "15 a month",
      "25/month",
      "99 each year",
    ]) {
      expect(pricesIn(`It costs ${price} now.`), price).toEqual([price]);
    }
    for (const [written, shown] of [
      ["£\u200B45", "£45"],
      ["£\u200D45", "£45"],
      ["€45", "€45"],
      ["$45", "$45"],
      ["45€", "45€"],
      ["＄45", "$45"],
      ["&pound;45", "£45"],
      ["&#163;45", "£45"],
      ["&euro;45", "€45"],
      ["4500p", "4500p (£45)"],
      ["45p", "45p (£0.45)"],
      ["99 pence", "99 pence (£0.99)"],
      ["20 euros", "20 euros"],
      ["50 dollars", "50 dollars"],
      ["forty-five pounds", "forty-five pounds (£45)"],
      ["forty five pounds", "forty five pounds (£45)"],
      ["a hundred and twenty pounds", "a hundred and twenty pounds (£120)"],
      ["one thousand pounds", "one thousand pounds (£1,000)"],
      ["ninety nine quid", "ninety nine quid (£99)"],
      ["twenty euros", "twenty euros (€20)"],
      ["fifty dollars", "fifty dollars ($50)"],
      ["Forty-Five Pounds", "Forty-Five Pounds (£45)"],
      ["£forty", "£forty (£40)"],
      ["seventy-five pence", "seventy-five pence (£0.75)"],
    ]) {
      expect(pricesIn(`Treatment for ${written} a go.`), written).toEqual([shown]);
    }
    expect(pricesIn("Forty-five\npounds"), "across a line").toEqual(["Forty-five pounds (£45)"]);
  });

  it("warns for Nebido and for £45 as the issue asks, for a medicine in any case in the subject, and stays quiet for ordinary announcements", () => {
    for (const [subject, body, warning = null] of [
      ["News", "Ask us about Nebido.", { medicines: ["nebido"], prices: [] }],
      ["Opening offer", "Consultations from £45.", { medicines: [], prices: ["£45"] }],
      ["TESTOGEL is here", "", { medicines: ["testogel"], prices: [] }],
      ["We are open", "Book a blood test"],
      ["News", "Our prices are on the website"],
      [
        "We are open",
        "From 3 March 2027 our doors open at 9:00. 12 doctors, 2 clinics, book online today.",
      ],
      ["Christmas hours", "We close on 24 December and open again on 1 December next year."],
      ["Opening hours", "We are open 9 to 5, Monday to Friday, and 9am-1pm on Saturdays."],
      ["Register", "It takes 2 minutes to register, and we reply within 24 hours."],
      ["Call us", "Ring 020 7946 0018 or +44 (0)20 7946 0018, or text 07700 900123."],
      ["A note", "One in a hundred men we see is over seventy. Two of our doctors joined."],
      ["Blood tests", "Results in 3-5 days; 1 in 4 men has low levels. See page 12."],
      ["Our team", "Dr Lee has 20 years' experience and 5 stars from 300 reviews."],
      ["Health", "Sleep, diet and exercise: three ways to feel better, in 10 minutes a week."],
      ["Line breaks", "We are open\nBook a blood test\n- Ask about our team-\nwork"],
      ["Emoji", "Thank you from all of us \u{1F468}\u200D\u2695\uFE0F"],
      // A word that merely contains a name is not the name.
      ["News", "Nebidoesque prose"],
    ] as const) {
      expect(announcementWarning(subject, body), `${subject}: ${body}`).toEqual(warning);
    }
  });
});
