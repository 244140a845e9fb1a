import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

import { ESLint } from "eslint";
import { describe, expect, it, onTestFinished } from "vitest";

/**
 * The layer zones of eslint.config.js (docs/architecture.md, "Layers"), tried on imports
 * written into files of each layer: every zone must refuse an import that crosses it the
 * wrong way and let a legal one through. The imported files are real, so they resolve.
 */
const root = path.resolve(import.meta.dirname, "../..");
// The example files exist only as text, and import/no-cycle needs files on disk.
const eslint = new ESLint({ cwd: root, overrideConfig: { rules: { "import/no-cycle": "off" } } });

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, filePath) });
  expect(result, `no lint result for ${filePath}`).toBeDefined();
  const fatal = result!.messages.filter((message) => message.fatal);
  expect(fatal).toEqual([]);
  return result!.messages.filter((message) => message.ruleId === "import/no-restricted-paths");
}

const importing = (target: string) =>
  `import * as moduleUnderTest from "${target}";\nexport const used = moduleUnderTest;\n`;

/** Each zone by name: the file the import is written in, imports it refuses, legal ones. */
const zones = {
  "contract/ imports nothing from the project": {
    file: "contract/example.ts",
    wrong: ["../app/lib/seo.ts", "../server/env.ts", "../tests/support/storage-backends.ts"],
    legal: ["./registrations.ts"],
  },
  "content imports only content": {
    file: "app/content/example.ts",
    wrong: [
      "../config/site.ts",
      "../lib/seo.ts",
      "../features/consent/consent-record.ts",
      "../../contract/registrations.ts",
    ],
    // The clinic's name and details live in content (decision 111), so content reaches them.
    legal: ["./content-types.ts", "./policies/policy-types.ts", "./clinic.ts"],
  },
  "config imports only config": {
    file: "app/config/example.ts",
    wrong: [
      "../content/pages.ts",
      "../content/emails.ts",
      "../lib/toaster.tsx",
      "../../contract/registrations.ts",
    ],
    // The flags' legal name comes from the clinic's one home (decision 111).
    legal: ["./site.ts", "../content/clinic.ts"],
  },
  "lib imports no components, features or routes": {
    file: "app/lib/example.ts",
    wrong: [
      "../features/quiz/scoring.ts",
      "../components/ui/cn.ts",
      "../routes/tools/quiz.tsx",
      "../root.tsx",
    ],
    legal: ["../config/site.ts", "../content/pages.ts", "./island.tsx"],
  },
  "ui imports only ui and lib": {
    file: "app/components/ui/example.tsx",
    wrong: [
      "../../config/site.ts",
      "../../content/pages.ts",
      "../../features/quiz/scoring.ts",
      "../layout/page-hero.tsx",
      "../../../contract/registrations.ts",
    ],
    legal: ["./cn.ts", "../../lib/island.tsx"],
  },
  "shared components import no features, routes or contract": {
    file: "app/components/layout/example.tsx",
    wrong: [
      "../../features/consent/consent-banner.tsx",
      "../../routes/tools/pricing.tsx",
      "../../../contract/registrations.ts",
    ],
    legal: [
      "../ui/button.tsx",
      "../../config/site.ts",
      "../../content/navigation.ts",
      "../content/cta-panel.tsx",
    ],
  },
  "an island's browser entry imports features and lib only": {
    file: "app/islands/example.tsx",
    wrong: ["../routes/tools/quiz.tsx", "../components/ui/button.tsx", "../content/quiz.ts"],
    legal: ["../features/quiz/island.ts", "../lib/hydrate-island.tsx"],
  },
  "a feature imports no other feature": {
    file: "app/features/quiz/example.ts",
    wrong: ["../pricing/cost.ts", "../registration/form.ts", "../consent/consent-record.ts"],
    legal: ["./scoring.ts", "../../content/quiz.ts", "../../lib/island.tsx"],
  },
  "features import no routes and no page shell": {
    file: "app/features/pricing/example.tsx",
    wrong: [
      "../../routes/tools/pricing.tsx",
      "../../components/layout/page-hero.tsx",
      "../../root.tsx",
    ],
    legal: ["../../components/ui/card.tsx", "../../config/site.ts", "./cost.ts"],
  },
  "app imports nothing from server, tests or scripts": {
    file: "app/features/registration/example.ts",
    wrong: ["../../../server/env.ts", "../../../tests/support/fake-spreadsheet.ts"],
    legal: ["../../../contract/registrations.ts"],
  },
  "server imports nothing from app (but its content) or tests": {
    file: "server/example.ts",
    wrong: [
      "../app/lib/seo.ts",
      "../app/config/site.ts",
      "../app/features/registration/form.ts",
      "../tests/support/storage-backends.ts",
    ],
    legal: [
      "../contract/registrations.ts",
      "./env.ts",
      "../app/content/pages.ts",
      "../app/content/clinic.ts",
    ],
  },
  "scripts import nothing from tests/": {
    file: "scripts/example.ts",
    wrong: [
      "../tests/e2e/fuzz.spec.ts",
      "../tests/engines/journeys.ts",
      "../tests/support/storage-backends.ts",
      "../tests/support/console.ts",
    ],
    legal: ["./lib/server-process.ts", "./lib/registrations.ts", "../server/operator/overview.ts"],
  },
  "scripts/lib/ imports nothing from tests/ either": {
    file: "scripts/lib/example.ts",
    wrong: ["../../tests/support/site.ts"],
    legal: ["./mail-catcher.ts", "../../server/env.ts"],
  },
  // The server's folders, top to bottom (decision 180): each imports only those below it.
  "cli/ may use the wiring, never main.ts": {
    file: "server/cli/example.ts",
    wrong: ["../main.ts", "../index.ts"],
    legal: ["../services.ts", "../console/operations.ts", "../db/backup.ts"],
  },
  "services.ts builds everything, but imports neither main.ts nor the CLI": {
    file: "server/services.ts",
    wrong: ["./main.ts", "./cli/run.ts"],
    legal: ["./console/store.ts", "./operator/admin.ts", "./outbox/mail.ts", "./env.ts"],
  },
  "console/ imports the folders below it and app.ts": {
    file: "server/console/example.ts",
    wrong: ["../services.ts", "../startup.ts", "../cli/run.ts", "../security-headers.ts"],
    legal: ["../operator/admin.ts", "../announcements/drafts.ts", "../app.ts", "../logger.ts"],
  },
  "operator/ imports no console": {
    file: "server/operator/example.ts",
    wrong: ["../console/store.ts", "../app.ts", "../services.ts"],
    legal: ["../announcements/drafts.ts", "../registrations/erasure.ts", "./overview.ts"],
  },
  "announcements/ imports no operator or console": {
    file: "server/announcements/example.ts",
    wrong: ["../operator/admin.ts", "../console/store.ts"],
    legal: ["../registrations/register.ts", "../outbox/summary.ts", "../mail/build-email.ts"],
  },
  "registrations/ imports no announcements": {
    file: "server/registrations/example.ts",
    wrong: ["../announcements/drafts.ts", "../operator/overview.ts", "../console/store.ts"],
    legal: ["../outbox/store.ts", "../shared/links.ts", "../db/writes.ts", "../logger.ts"],
  },
  "outbox/ imports no registrations": {
    file: "server/outbox/example.ts",
    wrong: ["../registrations/erasure.ts", "../announcements/drafts.ts"],
    legal: ["../mail/transport.ts", "../shared/address.ts", "../db/schema.ts"],
  },
  "mail/ imports no outbox or registrations": {
    file: "server/mail/example.ts",
    wrong: ["../outbox/store.ts", "../registrations/register.ts"],
    legal: ["../shared/links.ts", "../env.ts", "../logger.ts"],
  },
  "shared/ imports only db/": {
    file: "server/shared/example.ts",
    wrong: ["../mail/transport.ts", "../registrations/register.ts", "../outbox/store.ts"],
    legal: ["../db/schema.ts", "./csv.ts"],
  },
  "db/ imports no other folder": {
    file: "server/db/example.ts",
    wrong: ["../shared/links.ts", "../outbox/store.ts"],
    legal: ["./schema.ts", "../env.ts", "../logger.ts"],
  },
  "env.ts and logger.ts import no other server module": {
    file: "server/logger.ts",
    wrong: ["./db/schema.ts", "./app.ts"],
    legal: ["./env.ts"],
  },
  "the public listener's Express parts import only env.ts and logger.ts": {
    file: "server/app.ts",
    wrong: ["./registrations/guards.ts", "./services.ts"],
    legal: ["./logger.ts", "./env.ts"],
  },
  "tests/support/ imports no test": {
    file: "tests/support/example.ts",
    wrong: ["../e2e/fuzz.spec.ts", "../engines/engine.ts", "../image/image.spec.ts"],
    legal: ["./site.ts", "../../scripts/lib/server-process.ts", "../../server/env.ts"],
  },
};

describe("layer boundaries (import/no-restricted-paths)", () => {
  for (const [zone, { file, wrong, legal }] of Object.entries(zones)) {
    describe(zone, () => {
      it.each(wrong)(`refuses ${file} importing %s`, async (target) => {
        expect((await boundaryErrors(file, importing(target))).length).toBeGreaterThan(0);
      });
      it.each(legal)(`allows ${file} importing %s`, async (target) => {
        expect(await boundaryErrors(file, importing(target))).toEqual([]);
      });
    });
  }

  it.each([
    [
      "a type-only import from server/ in app/ as well",
      "app/lib/example.ts",
      `import type { Env } from "../../server/env.ts";\nexport type Used = Env;\n`,
    ],
    [
      "a dynamic import across a boundary",
      "app/features/quiz/example.ts",
      `export const later = () => import("../pricing/cost.ts");\n`,
    ],
    [
      "a server unit test importing a test",
      "server/db/example.test.ts",
      importing("../../tests/e2e/fuzz.spec.ts"),
    ],
  ])("refuses %s", async (_, file, code) => {
    expect((await boundaryErrors(file, code)).length).toBeGreaterThan(0);
  });

  it.each([
    [
      "use tests/support/ and scripts/lib/, but not server code",
      ["../../tests/support/storage-backends.ts", "../../scripts/lib/server-process.ts"],
    ],
    ["import any server folder, as nothing imports a test", ["../services.ts"]],
  ])("lets a server unit test %s", async (_, targets) => {
    for (const target of targets) {
      expect(await boundaryErrors("server/db/example.test.ts", importing(target))).toEqual([]);
      const errors = await boundaryErrors("server/db/example.ts", importing(target));
      expect(errors.length).toBeGreaterThan(0);
    }
  });

  it("refuses a type-only import up the server's folders", async () => {
    const errors = await boundaryErrors(
      "server/mail/example.ts",
      `import type { Claim } from "../outbox/store.ts";\nexport type Used = Claim;\n`,
    );
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining("server/mail/ imports only shared/, db/, env.ts, logger.ts"),
    ]);
  });
});

describe("import cycles (import/no-cycle)", () => {
  it("sees a cycle between a .ts and a .tsx module", async () => {
    // Outside the repository, so nothing else that reads the tree (the image build) sees it.
    const dir = mkdtempSync(path.join(tmpdir(), "clinic-cycle-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    writeFileSync(path.join(dir, "b.ts"), `import { c } from "./c.tsx";\nexport const b = c;\n`);
    writeFileSync(
      path.join(dir, "c.tsx"),
      `import { b } from "./b.ts";\nexport const c = () => b;\n`,
    );
    const results = await new ESLint({
      cwd: dir,
      overrideConfigFile: path.join(root, "eslint.config.js"),
    }).lintFiles([dir]);
    const cycles = results.flatMap((r) =>
      r.messages.filter((m) => m.ruleId === "import/no-cycle").map(() => path.basename(r.filePath)),
    );
    expect(cycles.toSorted()).toEqual(["b.ts", "c.tsx"]);
  });
});
