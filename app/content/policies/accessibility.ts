// In the order of GOV.UK's sample accessibility statement, in our words. CLINIC TO CONFIRM
// before launch (docs/content-review.md).
import { type PolicyDocument, list, section } from "./policy-types.ts";
import { clinic, postalAddress } from "../clinic.ts";

export const accessibilityStatement: PolicyDocument = {
  lastUpdated: "November 2026",
  version: "1.0",
  intro: [
    `${clinic.name} runs this website. We want as many people as possible to be able to use it: you should be able to change colours, text size and fonts through your browser, zoom to 400% without the text spilling off the screen, move around the whole site with a keyboard alone, and use it with a screen reader or voice control.`,
  ],
  sections: [
    section("standard", "The standard we meet", [
      "We aim to meet the Web Content Accessibility Guidelines (WCAG) version 2.2 at level AA. We believe the site meets that standard, apart from the limits listed below.",
    ]),
    section("known-limits", "Known limits", [
      list(
        "The yearly-cost chart on the pricing page is a picture of numbers; the same figures are in a table beside it, and a screen reader is given them as text.",
        "Some links lead to other organisations' websites, such as the GMC register and the NHS, which we do not control and which may be less accessible.",
        "Our placeholder team photographs are initials, not pictures; when real photographs arrive they will be given text descriptions.",
      ),
      "If you find a problem not listed here, please tell us: we will add it and say when we expect to fix it.",
    ]),
    section("report", "Reporting a problem or asking for another format", [
      `If something on this site is hard to use, or you need information in another format such as large print, easy read or audio, email ${clinic.email} or write to ${postalAddress}. Tell us the page address and what went wrong. We will reply within 5 working days.`,
    ]),
    section("enforcement", "If you are not happy with our reply", [
      "The Equality and Human Rights Commission (EHRC) enforces the Equality Act 2010 in Great Britain. If you are not happy with how we respond to your complaint, you can contact the Equality Advisory and Support Service (EASS).",
    ]),
    section("testing", "How we test this website", [
      "Every change to the site is checked, page by page, before it is published:",
      list(
        "automated accessibility checks with axe on every page;",
        "the Nu HTML Checker (the W3C's validator) on the markup of every page;",
        "keyboard tests: every page can be used with the Tab, Enter, Space and arrow keys, with a visible focus indicator;",
        "Lighthouse audits of accessibility, speed and search findability;",
        "checks that text reflows at 320 pixels wide and that nothing depends on colour alone.",
      ),
      "Automated tools find only some problems, so we also check pages by hand with a screen reader before launch.",
    ]),
  ],
};
