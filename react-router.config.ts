import type { Config } from "@react-router/dev/config";

import { prerenderedPaths } from "./app/prerendered-paths.ts";

// SPA_BUILD=1 builds the client-only variant that `npm run audit` compares against.
const spa = process.env.SPA_BUILD === "1";

export default {
  ssr: !spa,
  // Every path of app/routes.ts without a dynamic segment, except the pages that need
  // their request (email links with a token): app/prerendered-paths.ts.
  prerender: spa ? false : [...prerenderedPaths],
  // Only the audit's client-only baseline runs React Router in a browser (decision 126);
  // there the whole route table ships with the first page instead of being fetched from
  // /__manifest as links appear (decision 054).
  routeDiscovery: { mode: "initial" },
  // BUILD_DIR lets parallel work (and the SPA comparison) build side by side.
  buildDirectory: process.env.BUILD_DIR ?? (spa ? "build-spa" : "build"),
} satisfies Config;
