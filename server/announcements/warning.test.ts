import { describe, expect, it } from "vitest";

import { announcementWarning } from "./warning.ts";
import { treatmentOptions as pricedTreatments } from "../../app/content/pricing.ts";
import { treatmentOptions } from "../../app/content/treatments.ts";

describe("the prescription-only medicine and price warning", () => {
  it("warns for Nebido and for £45, as the issue asks", () => {
    expect(announcementWarning("News", "Ask us about Nebido.")).toEqual({
      medicines: ["nebido"],
      prices: [],
    });
    expect(announcementWarning("Opening offer", "Consultations from £45.")).toEqual({
      medicines: [],
      prices: ["£45"],
    });
  });

  it("finds medicines in any letter case, in the subject too, and prices in their usual spellings", () => {
    expect(announcementWarning("TESTOGEL is here", "")?.medicines).toEqual(["testogel"]);
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
      expect(announcementWarning("News", `It costs ${price} now.`)?.prices, price).toHaveLength(1);
    }
  });

  it("stays quiet for plain news, dates, counts and times", () => {
    expect(
      announcementWarning(
        "We are open",
        "From 3 March 2027 our doors open at 9:00. 12 doctors, 2 clinics, book online today.",
      ),
    ).toBeNull();
    // A word that merely contains a name is not the name.
    expect(announcementWarning("News", "Nebidoesque prose")).toBeNull();
  });

  it("covers every preparation and every medicine the cost calculator prices", () => {
    // "Scrotal cream" names a form; its preparation ("Testosterone cream") is covered.
    const names = [
      ...treatmentOptions.flatMap((t) => t.preparations),
      ...pricedTreatments.map((m) => m.name).filter((name) => name !== "Scrotal cream"),
    ];
    for (const name of names) {
      expect(announcementWarning("", name)?.medicines, name).not.toHaveLength(0);
    }
  });
});
