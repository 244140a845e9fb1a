import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

const root = import.meta.dirname;
const features = ["consent", "pricing", "quiz", "registration"];
const appShell = ["./app/routes", "./app/root.tsx", "./app/entry.server.tsx", "./app/routes.ts"];

/**
 * The server's folders, top to bottom (docs/architecture.md, "Server folders"; decision 180):
 * a folder imports only the folders below it, and env.ts and logger.ts, which every folder
 * may use. Above them all: the entry points (index.ts, main.ts, cli/) and the wiring
 * (services.ts, startup.ts); the console also builds its listener on app.ts.
 */
const serverFolders = [
  "console",
  "operator",
  "announcements",
  "registrations",
  "outbox",
  "mail",
  "shared",
  "db",
];
const serverBase = ["./env.ts", "./logger.ts"];

/** Server modules import downward only; unit tests, which nothing imports, are free of this. */
const serverZones = [
  ...serverFolders.map((folder, index) => ({
    target: `./server/${folder}`,
    from: "./server",
    except: [
      ...serverFolders.slice(index).map((below) => `./${below}`),
      ...serverBase,
      ...(folder === "console" ? ["./app.ts"] : []),
    ],
    message: `server/${folder}/ imports only ${[
      ...serverFolders.slice(index + 1).map((below) => `${below}/`),
      "env.ts",
      "logger.ts",
    ].join(", ")} from server/, what is below it (decision 180).`,
  })),
  {
    target: ["./server/env.ts", "./server/logger.ts"],
    from: "./server",
    except: serverBase,
    message: "env.ts and logger.ts are the server's base: they import no other server module.",
  },
  {
    target: ["./server/app.ts", "./server/security-headers.ts"],
    from: "./server",
    except: serverBase,
    message: "The public listener's Express parts import only env.ts and logger.ts from server/.",
  },
  {
    target: ["./server/services.ts", "./server/startup.ts", "./server/cli"],
    from: ["./server/main.ts", "./server/index.ts"],
    message: "Only server/index.ts loads main.ts, the server's entry point.",
  },
  {
    target: ["./server/services.ts", "./server/startup.ts"],
    from: "./server/cli",
    message: "The wiring (services.ts, startup.ts) does not import the CLI, which uses it.",
  },
];

/**
 * Who may not import whom (import/no-restricted-paths; paths from the repository root).
 * Each zone names a target folder and the folders it must not import from. The table in
 * docs/architecture.md says the same thing in prose; tests/lint/layers.test.ts proves
 * every zone refuses a wrong-way import and allows a legal one.
 */
export const layerZones = [
  {
    target: "./contract",
    from: ["./app", "./server", "./tests", "./scripts"],
    message: "contract/ is the neutral app/server contract: it imports nothing from the project.",
  },
  {
    target: "./app/content",
    from: ["./app", "./contract"],
    except: ["./content"],
    message: "Content imports only content; routes pass in facts from config or features.",
  },
  {
    target: "./app/config",
    from: ["./app", "./contract"],
    // The specification's flags include the company's legal name, read from the clinic's
    // one home (decision 111).
    except: ["./config", "./content/clinic.ts"],
    message: "Configuration imports only configuration.",
  },
  {
    target: "./app/lib",
    from: ["./app/components", "./app/features", ...appShell],
    message: "app/lib/ holds generic helpers: no components, features or routes.",
  },
  {
    target: "./app/components/ui",
    from: [
      "./app/components",
      "./app/features",
      "./app/content",
      "./app/config",
      "./contract",
      ...appShell,
    ],
    except: ["./ui"],
    message: "UI primitives import only ui/ and app/lib/: copy and settings come in as props.",
  },
  {
    target: "./app/components",
    from: ["./app/features", "./contract", ...appShell],
    message: "Shared components do not import features or routes; root.tsx passes features in.",
  },
  ...features.map((feature) => ({
    target: `./app/features/${feature}`,
    from: "./app/features",
    except: [`./${feature}`],
    message: "A feature does not import another feature; compose them in a route.",
  })),
  {
    target: "./app/features",
    from: ["./app/components/layout", ...appShell],
    message: "Features do not import routes or the page shell (app/components/layout/).",
  },
  {
    target: "./app/islands",
    from: ["./app/components", "./app/content", "./app/config", "./contract", ...appShell],
    message: "An island's browser entry hydrates a feature's island: features and lib only.",
  },
  {
    target: "./app",
    from: ["./server", "./tests", "./scripts"],
    message: "app/ reaches the server only through contract/ and React Router context.",
  },
  {
    target: "./server",
    from: "./app",
    // The words of emails are content like any other copy (docs/decisions/088).
    except: ["./content"],
    message:
      "server/ reaches app/ only through contract/, app/content/ (the words of emails), and the built bundle at run time.",
  },
  {
    target: "./server",
    from: ["./tests", "./scripts"],
    message: "server/ does not import tests or scripts.",
  },
  {
    target: "./scripts",
    from: "./tests",
    message:
      "scripts/ imports nothing from tests/: what both use (launcher, fakes, builders) is in scripts/lib/.",
  },
  {
    target: "./tests/support",
    from: ["./tests/e2e", "./tests/engines", "./tests/image", "./tests/lint"],
    message: "tests/support/ holds what tests share: it imports no test.",
  },
  ...serverZones,
];

/** Server unit tests may also reach the test helpers and the server launcher. */
const serverTestZones = [
  ...layerZones.filter((zone) => zone.target !== "./server" && !serverZones.includes(zone)),
  {
    target: "./server",
    from: ["./tests", "./scripts"],
    except: ["./support", "./lib"],
    message: "A server unit test may import tests/support/ and scripts/lib/, never a test.",
  },
];

export default tseslint.config(
  {
    ignores: [
      "build/",
      "build-spa/",
      "build-*/",
      ".react-router/",
      "node_modules/",
      "data/",
      "test-results/",
      "playwright-report/",
      "screenshots/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx,js}"],
    languageOptions: {
      globals: { ...globals.browser, ...globals.node },
    },
    plugins: { import: importPlugin, "react-hooks": reactHooks },
    settings: {
      // import/no-cycle follows imports only through files it can parse: without the
      // TypeScript parser it saw no import in a .ts file, and parsing node_modules was
      // 95% of lint's time for no cycle of ours.
      "import/ignore": ["node_modules"],
      "import/parsers": { "@typescript-eslint/parser": [".ts", ".tsx"] },
      "import/resolver": { node: { extensions: [".ts", ".tsx", ".js"] } },
    },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "import/no-cycle": "error",
      "import/no-duplicates": "error",
      "import/first": "error",
      "import/order": [
        "error",
        {
          groups: ["builtin", "external", "internal", ["parent", "sibling", "index"]],
          "newlines-between": "always",
          alphabetize: { order: "asc", caseInsensitive: true },
        },
      ],
      "no-console": ["error", { allow: ["error", "warn"] }],
    },
  },
  {
    files: ["app/**/*.tsx"],
    ...jsxA11y.flatConfigs.recommended,
  },
  {
    // The layers of docs/architecture.md, enforced (docs/decisions/063).
    files: ["{app,server,contract,scripts,tests}/**/*.{ts,tsx}"],
    rules: { "import/no-restricted-paths": ["error", { basePath: root, zones: layerZones }] },
  },
  {
    files: ["server/**/*.test.ts"],
    rules: {
      "import/no-restricted-paths": ["error", { basePath: root, zones: serverTestZones }],
    },
  },
  {
    // A <button> without a type submits its form: every one says what it is.
    // (Components such as ui/button.tsx pass a type; tests/e2e/page-hygiene.spec.ts checks the DOM.)
    files: ["app/**/*.tsx"],
    rules: {
      "no-restricted-syntax": [
        "error",
        {
          selector:
            'JSXOpeningElement[name.name="button"]:not(:has(JSXAttribute[name.name="type"]))',
          message: 'Give every <button> an explicit type ("button" or "submit").',
        },
      ],
    },
  },
  {
    // Google Apps Script: every file of a project shares one global scope (no modules),
    // so top-level functions are used by the other files or by Apps Script itself.
    files: ["integrations/google-sheets/**/*.js"],
    languageOptions: { sourceType: "script" },
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { vars: "local", argsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["scripts/**", "tests/**", "server/**"],
    rules: { "no-console": "off" },
  },
);
