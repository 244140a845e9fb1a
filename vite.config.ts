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
  build: { assetsInlineLimit: 0 },
});
