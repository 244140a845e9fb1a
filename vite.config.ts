import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

import { siteUrlFromEnv } from "./scripts/site-url.ts";
import { zodJitless } from "./scripts/vite-zod-jitless.ts";

export default defineConfig({
  plugins: [zodJitless(), tailwindcss(), reactRouter()],
  define: {
    // Prerendered pages carry canonical URLs, so the origin is fixed at build time.
    "import.meta.env.VITE_SITE_URL": JSON.stringify(siteUrlFromEnv()),
  },
  build: {
    assetsInlineLimit: 0,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              // React, React DOM and React Router load on every page together, so they ship
              // in one file: one request, one gzip window, and no cross-chunk import lists.
              // React Router's default client entry lives under @react-router/ too; kept out,
              // it stays a small entry chunk, so no route imports the entry and the entry is
              // preloaded once, not twice (decision 054).
              name: "framework",
              test: (id) =>
                /node_modules[\\/](react|react-dom|scheduler|react-router|@react-router)[\\/]/.test(
                  id,
                ) && !/[\\/]entry\.client\.[jt]sx?$/.test(id),
              priority: 2,
            },
            {
              // The layout every page shares: root.tsx with everything it imports statically
              // (captured recursively), plus the small helpers and primitives that nearly every
              // route uses (meta, hydration flag, toast trigger, card, section, page
              // hero). One file instead of about twenty small ones, each with its own gzip
              // overhead: about 1.4 KB less on /pricing, the heaviest page.
              name: "shell",
              test: /[\\/]app[\\/](root\.tsx|lib[\\/](seo|use-hydrated|notify)\.ts|components[\\/]ui[\\/](card|section)\.tsx?|components[\\/]layout[\\/]page-hero\.tsx)$/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
