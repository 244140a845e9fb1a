import type { Config } from "@react-router/dev/config";

// SPA_BUILD=1 builds the client-only variant that `npm run audit` compares against.
const spa = process.env.SPA_BUILD === "1";

export default {
  ssr: !spa,
  // `true` prerenders every path of app/routes.ts that has no dynamic segment.
  prerender: !spa,
  // BUILD_DIR lets parallel work (and the SPA comparison) build side by side.
  buildDirectory: process.env.BUILD_DIR ?? (spa ? "build-spa" : "build"),
} satisfies Config;
