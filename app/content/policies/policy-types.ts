/**
 * The shape of a policy page. Long legal text lives in these typed modules and is
 * rendered by one layout (app/components/content/policy-layout.tsx), with the site facts the route passes in.
 */
export type PolicyBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "table"; caption: string; head: string[]; rows: string[][] };

export type PolicySection = { id: string; heading: string; blocks: PolicyBlock[] };

export type PolicyDocument = {
  /** Month and year the text was last revised. */
  lastUpdated: string;
  version: string;
  /** Terms of service only: when the terms take effect. */
  effective?: string;
  /** A highlighted notice above the text, if the policy needs one. */
  notice?: string;
  intro: string[];
  sections: PolicySection[];
};

/** Small helpers that keep the modules readable. */
export const p = (text: string): PolicyBlock => ({ kind: "paragraph", text });
export const list = (...items: string[]): PolicyBlock => ({ kind: "list", items });
export function section(id: string, heading: string, blocks: PolicyBlock[]): PolicySection {
  return { id, heading, blocks };
}
export const table = (caption: string, head: string[], rows: string[][]): PolicyBlock => ({
  kind: "table",
  caption,
  head,
  rows,
});

/**
 * The site facts a policy quotes. Content imports nothing from configuration: the
 * policy routes pass these in (app/features/consent/policy-facts.ts).
 */
export type PolicyFacts = {
  clinicName: string;
  /** The legal name registered at Companies House. */
  companyName: string;
  email: string;
  postalAddress: string;
  /** The local-storage key that holds the visitor's cookie choice. */
  consentStorageKey: string;
  /** The session-storage key that holds the visit's source, with analytics consent only. */
  visitSourceStorageKey: string;
};
