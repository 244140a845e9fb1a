import { type RouteConfig, index, route } from "@react-router/dev/routes";

import { consoleRoutes } from "../contract/console.ts";

/** Prerendering and the sitemap are derived from it, through app/prerendered-paths.ts. */
export default [
  index("routes/marketing/home.tsx"),
  route("our-approach", "routes/marketing/our-approach.tsx"),
  route("team", "routes/marketing/team.tsx"),
  route("trt-overview", "routes/marketing/trt-overview.tsx"),
  route("faq", "routes/marketing/faq.tsx"),
  route("services", "routes/marketing/services.tsx"),
  route("treatment-options", "routes/marketing/treatment-options.tsx"),
  route("consultation", "routes/marketing/consultation.tsx"),
  route("contact", "routes/marketing/contact.tsx"),
  route("quiz", "routes/tools/quiz.tsx"),
  route("pricing", "routes/tools/pricing.tsx"),
  route("register-interest", "routes/registration/register-interest.tsx"),
  route("register-interest/thank-you", "routes/registration/thank-you.tsx"),
  route("register-interest/confirm", "routes/registration/confirm.tsx"),
  route("unsubscribe", "routes/registration/unsubscribe.tsx"),
  ...[
    "privacy-policy",
    "terms-of-service",
    "cookie-policy",
    "shipping-policy",
    "refund-policy",
    "accessibility",
  ].map((path) => route(path, "routes/legal/policy.tsx", { id: `/${path}` })),
  // Only on the console listener (decision 133), one route per row of its table (decision 182).
  route("console", "routes/console/layout.tsx", [
    ...Object.entries(consoleRoutes).map(([path, { file }]) =>
      path === "/console"
        ? index(`routes/console/${file}`)
        : route(path.slice("/console/".length), `routes/console/${file}`),
    ),
    route("*", "routes/console/not-found.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
