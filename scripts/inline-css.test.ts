import { describe, expect, it } from "vitest";

import { inlineCssEnabled, inlineStylesheets } from "./inline-css.ts";

const css = "body{color:#102d2c}";
const read = (href: string) => {
  if (href !== "/assets/app-abc.css") throw new Error(`unexpected ${href}`);
  return css;
};

describe("inlineStylesheets", () => {
  it("puts the stylesheet in a style element and keeps a disabled link for React to adopt", () => {
    const html =
      '<head><meta charSet="utf-8"/><link rel="stylesheet" href="/assets/app-abc.css" data-precedence="default"/><link rel="icon" href="/favicon.svg"/></head>';
    expect(inlineStylesheets(html, read)).toBe(
      `<head><meta charSet="utf-8"/><style>${css}</style><link rel="stylesheet" href="/assets/app-abc.css" data-precedence="default" disabled/><link rel="icon" href="/favicon.svg"/></head>`,
    );
  });

  it("leaves preloads, other origins and documents without a stylesheet alone", () => {
    const html =
      '<link rel="preload" as="style" href="/assets/app-abc.css"/><link rel="stylesheet" href="https://example.com/x.css"/>';
    expect(inlineStylesheets(html, read)).toBe(html);
  });

  it("refuses a stylesheet that would end the style element early", () => {
    const html = '<link rel="stylesheet" href="/assets/app-abc.css"/>';
    expect(() => inlineStylesheets(html, () => "a{}</style><script>x</script>")).toThrow(
      /cannot be inlined/,
    );
  });
});

describe("inlineCssEnabled", () => {
  it("reads INLINE_CSS and rejects values it does not know", () => {
    expect(inlineCssEnabled({ INLINE_CSS: "1" })).toBe(true);
    expect(inlineCssEnabled({ INLINE_CSS: "0" })).toBe(false);
    expect(() => inlineCssEnabled({ INLINE_CSS: "maybe" })).toThrow(/INLINE_CSS/);
  });
});
