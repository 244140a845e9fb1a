import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";

import { extendTailwindMerge } from "tailwind-merge";
import { describe, expect, it } from "vitest";

import { cn } from "./cn.ts";

const appDir = path.resolve(import.meta.dirname, "../..");

/** Every Tailwind-looking word in a string literal anywhere in app/. */
function classesUsedInApp(): string[] {
  const words = new Set<string>();
  for (const name of readdirSync(appDir, { recursive: true }) as string[]) {
    if (!/\.(ts|tsx)$/.test(name) || /\.test\.ts$|[/\\]cn\.ts$/.test(name)) continue;
    const source = readFileSync(path.join(appDir, name), "utf8");
    for (const literal of source.matchAll(/"([^"\n]*)"|`([^`]*)`/g)) {
      for (const word of (literal[1] ?? literal[2] ?? "").split(/\s+/)) {
        if (/^!?[a-z[(@-][\w:/.[\]()%=&>*+,#-]*!?$/.test(word) && word.includes("-")) {
          words.add(word);
        }
      }
    }
  }
  return [...words].sort();
}

// The reference: the full tailwind-merge, told about the site's own theme (app/app.css).
const twMerge = extendTailwindMerge({
  extend: {
    theme: {
      text: ["display"],
      radius: ["card", "control"],
      shadow: ["card"],
      spacing: ["banner", "header"],
    },
  },
});

describe("cn", () => {
  it("lets a later utility override an earlier one of the same kind", () => {
    expect(cn("p-6 sm:p-7", "p-0 sm:p-0")).toBe("p-0 sm:p-0");
    expect(cn("min-h-11 px-5 py-2.5 text-base", "min-h-10 px-4 py-2 text-sm")).toBe(
      "min-h-10 px-4 py-2 text-sm",
    );
    expect(cn("py-14 sm:py-20", "pt-0 sm:pt-0")).toBe("py-14 sm:py-20 pt-0 sm:pt-0");
    expect(cn("text-lg text-white", "text-sm")).toBe("text-white text-sm");
    expect(cn("text-display", "text-ink")).toBe("text-display text-ink");
    expect(cn("hidden", false, "sm:inline-flex")).toBe("hidden sm:inline-flex");
  });

  it("merges every pair of classes used in app/ as the full tailwind-merge does", () => {
    // Variants (sm:, hover:) are handled alike by both, so compare the bare utilities.
    const bare = classesUsedInApp().map((c) => c.replace(/^([\w-]+(\[[^\]]*\])?:)+/, ""));
    const classes = [...new Set(bare)];
    expect(classes.length).toBeGreaterThan(100);
    const differences: string[] = [];
    for (const a of classes) {
      for (const b of classes) {
        // Repeats of one class make no difference to the page, so compare without them.
        const ours = [...new Set(cn(a, b).split(" "))].join(" ");
        const full = [...new Set(twMerge(a, b).split(" "))].join(" ");
        if (ours !== full) differences.push(`"${a} ${b}": ours "${ours}", twMerge "${full}"`);
      }
    }
    // A difference means a utility group cn.ts does not know yet: add it there.
    expect(differences.slice(0, 40), "groups missing from app/components/ui/cn.ts").toEqual([]);
  });
});
