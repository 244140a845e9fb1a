import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";

import { siteUrlFromEnv } from "./scripts/site-url.ts";
import { islands } from "./scripts/vite-islands.ts";

export default defineConfig({
  plugins: [tailwindcss(), reactRouter(), islands()],
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
              // React and React DOM, which every island needs, in one file: one request and
              // one gzip window. React Router stays out: no page loads it in the browser
              // (docs/decisions/126).
              name: "react",
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
