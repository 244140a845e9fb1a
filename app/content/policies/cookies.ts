import { type PolicyDocument, type StorageKeys, list, section, table } from "./policy-types.ts";
import { clinic } from "../clinic.ts";

export const cookiePolicy = (keys: StorageKeys): PolicyDocument => ({
  lastUpdated: "January 2025",
  version: "1.0",
  intro: [
    `This policy explains how ${clinic.name} uses cookies and similar technologies, such as your browser's local storage, and how you can control them.`,
  ],
  sections: [
    section("what-are-cookies", "What cookies are", [
      "Cookies are small text files a website stores on your device. Local storage works in a similar way. Both let a site remember information between pages or visits.",
    ]),
    section("cookies-we-use", "The cookies we use", [
      "We keep storage to a minimum. Essential storage is always on, because the site needs it. Everything else waits for your permission.",
      table(
        "Cookies and storage on this site",
        ["Name", "Type", "Purpose", "Duration"],
        [
          [
            `Consent record (${keys.consentStorageKey})`,
            "Essential",
            "Remembers the cookie choice you made, so we do not ask on every page",
            "1 year",
          ],
          [
            "Session cookie",
            "Essential",
            "Will keep secure features, such as booking, working while you browse once services launch",
            "For the session (deleted when you close your browser)",
          ],
          [
            `Visit source (${keys.visitSourceStorageKey}, session storage)`,
            "Analytics (optional)",
            "Remembers, for this visit only, the campaign tags in the link you arrived by (utm_source, utm_medium, utm_campaign) and the name of the website that sent you, never the page. If you register interest, they are saved with your registration so we can count which campaigns and sites bring registrations",
            "Until you close the tab; with your registration, as long as we keep it",
          ],
          [
            "Analytics visitor cookie",
            "Analytics (optional)",
            "Would tell us, anonymously, how many people return to the site",
            "2 years",
          ],
          [
            "Analytics session cookie",
            "Analytics (optional)",
            "Would group the pages you view in one visit",
            "24 hours",
          ],
        ],
      ),
      "Today the site uses the consent record and, only if you allow analytics, the visit source. The visit source is first-party: it stays in your browser and on our own systems, is never shared with another company, and is not a cookie. If you do not allow analytics, or your browser runs no JavaScript, nothing about where you came from is recorded, and changing your choice to refuse analytics deletes it from your browser. The analytics cookies are listed so you know their lifetimes before we ever use them. We do not run analytics or marketing tools from other companies; if we add any, we will update this policy first and only set them with your consent.",
    ]),
    section("your-choices", "Your choices", [
      "When you first visit, a banner asks for your choice. 'Accept All' allows every category; 'Essential Only' allows only what the site needs. You can change your mind at any time with the 'Cookie settings' button at the foot of every page.",
      list(
        "Essential: needed for the site to work and to remember your choice. Always on.",
        "Analytics: lets us record which campaign or website brought you, if you register interest.",
        "Functional: would remember preferences you set.",
        "Marketing: would let us measure campaigns on other sites.",
      ),
      "You can also clear cookies and local storage in your browser settings. If you do, we will ask for your choice again.",
    ]),
    section("contact", "Questions", [
      `If you have a question about cookies, email us at ${clinic.email}.`,
    ]),
  ],
});
