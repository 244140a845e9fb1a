import { CONSENT_LIFETIME_MS, CONSENT_STORAGE_KEY, ISO_DATE_TIME } from "./consent-record.ts";

/**
 * The inline script at the top of every page (docs/decisions/058). It runs before the first
 * paint and sets `data-consent` on <html>: "stored" when a valid, unexpired choice is in
 * localStorage (the banner stays hidden), "ask" otherwise (the banner shows and its height is
 * reserved). Without JavaScript the attribute is never set and the banner stays hidden, since
 * nothing optional can run then. It applies the same checks as `parseStoredConsent`
 * (consent-script.test.ts compares them); after hydration React takes over.
 *
 * Prerendered pages allow it by its hash (computed from the built HTML by scripts/postbuild.ts),
 * server-rendered pages by the request's nonce.
 */
export const consentScript = `(function(){var s="ask";try{var v=JSON.parse(localStorage.getItem(${JSON.stringify(
  CONSENT_STORAGE_KEY,
)}));if(v&&typeof v=="object"&&!Array.isArray(v)&&v.version===1&&v.essential===true&&typeof v.analytics=="boolean"&&typeof v.functional=="boolean"&&typeof v.marketing=="boolean"&&typeof v.decidedAt=="string"&&/${ISO_DATE_TIME.source}/.test(v.decidedAt)&&Date.now()-Date.parse(v.decidedAt)<=${CONSENT_LIFETIME_MS})s="stored"}catch(e){}document.documentElement.setAttribute("data-consent",s)})()`;
