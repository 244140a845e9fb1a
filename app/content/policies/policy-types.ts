// A policy page's text, rendered by app/routes/legal/policy.tsx.
export type PolicyBlock =
  | { kind: "paragraph"; text: string }
  | { kind: "list"; items: string[] }
  | { kind: "table"; caption: string; head: string[]; rows: string[][] };

export type PolicyDocument = {
  /** Month and year the text was last revised. */
  lastUpdated: string;
  version: string;
  /** Terms of service only: when the terms take effect. */
  effective?: string;
  notice?: string;
  intro: string[];
  sections: { id: string; heading: string; blocks: PolicyBlock[] }[];
};

export const list = (...items: string[]): PolicyBlock => ({ kind: "list", items });
export const table = (caption: string, head: string[], rows: string[][]): PolicyBlock => ({
  kind: "table",
  caption,
  head,
  rows,
});
/** A string among the blocks is a paragraph. */
export const section = (id: string, heading: string, blocks: (string | PolicyBlock)[]) => ({
  id,
  heading,
  blocks: blocks.map((b): PolicyBlock =>
    typeof b === "string" ? { kind: "paragraph", text: b } : b,
  ),
});

/** Content imports no feature: the policy route passes these in. */
export type StorageKeys = {
  /** The local-storage key that holds the visitor's cookie choice. */
  consentStorageKey: string;
  /** The session-storage key that holds the visit's source, with analytics consent only. */
  visitSourceStorageKey: string;
};
