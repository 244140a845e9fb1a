import { describe, expect, it } from "vitest";

import { hasInvisible, lookalikeKey, readings, withoutInvisible } from "./reading.ts";

describe("announcement text as a reader sees it", () => {
  it("takes out the characters that show nothing, and leaves emoji whole", () => {
    const family = "\u{1F468}\u200D\u{1F469}\u200D\u{1F467}";
    const england = "\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}";
    const thumbs = "\u{1F44D}\u{1F3FD}";
    expect(withoutInvisible(`a\u200Bb\u200Cc\u200Dd\u2060e\u00ADf\uFEFFg\u3164h`)).toBe("abcdefgh");
    expect(withoutInvisible("\u202Eabc\u202C \u2066x\u2069 \u200Fy\u200E")).toBe("abc x y");
    expect(withoutInvisible(`${family} ${england} ${thumbs} \u2764\uFE0F`)).toBe(
      `${family} ${england} ${thumbs} \u2764\uFE0F`,
    );
    // A joiner between an emoji and a letter joins nothing a reader sees.
    expect(withoutInvisible("\u{1F468}\u200Dx")).toBe("\u{1F468}x");
    expect(hasInvisible("We are open")).toBe(false);
    expect(hasInvisible("We are\u00A0open")).toBe(false);
    expect(hasInvisible("We are\u202Eopen")).toBe(true);
  });

  it("reads entities, compatibility forms, accents and line breaks as a reader does", () => {
    expect(readings("&pound;45 &amp; Caf&eacute;\n\uFF34ea\u00A0for\u2003two")).toEqual({
      spaced: "£45 & Cafe Tea for two",
      joined: "£45 & CafeTea for two",
    });
    expect(readings("Neb-\r\n  ido\u2028and")).toEqual({
      spaced: "Neb- ido and",
      joined: "Nebidoand",
    });
  });

  it("folds look-alike letters to Latin ones, for comparing only", () => {
    expect(lookalikeKey("Testogel")).toBe(lookalikeKey("T\u0435st\u043Eg\u0435I"));
  });
});
