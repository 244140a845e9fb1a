import js from "@eslint/js";
import importPlugin from "eslint-plugin-import";
import jsxA11y from "eslint-plugin-jsx-a11y";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import tseslint from "typescript-eslint";

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
    settings: { "import/resolver": { node: { extensions: [".ts", ".tsx", ".js"] } } },
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
    // Client code never reaches into the server, except for type-only contracts.
    files: ["app/**/*.{ts,tsx}"],
    ignores: ["app/entry.server.tsx", "app/**/*.server.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/server/**"],
              allowTypeImports: true,
              message: "app/ must not import server code (type-only contracts are fine).",
            },
          ],
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
