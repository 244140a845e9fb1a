import { createRequire } from "node:module";

import { expect, test } from "vitest";

/**
 * @simplewebauthn/server parses an ES256 signature (most phones' and laptops' passkeys)
 * with @peculiar/asn1-schema's parser and @peculiar/asn1-ecc's schema. With two copies
 * of asn1-schema the schema is registered in one and looked up in the other, and every
 * such sign-in fails as "not verified" (docs/decisions/137). Chromium's virtual
 * authenticator signs with ML-DSA-44, so the end-to-end tests in Chromium cannot see it.
 */
test("@simplewebauthn/server and @peculiar/asn1-ecc share one @peculiar/asn1-schema", () => {
  const server = createRequire(createRequire(import.meta.url).resolve("@simplewebauthn/server"));
  const ecc = createRequire(server.resolve("@peculiar/asn1-ecc"));
  expect(ecc.resolve("@peculiar/asn1-schema")).toBe(server.resolve("@peculiar/asn1-schema"));
});
