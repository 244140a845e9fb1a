import { type RouteConfig, index, route } from "@react-router/dev/routes";

/**
 * The route table: the single list of pages. Prerendering (react-router.config.ts)
 * and the sitemap (scripts/postbuild.ts) are both derived from it, through
 * app/prerendered-paths.ts.
 */
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
  // Where the form posted without JavaScript is redirected (303): prerendered, not in the sitemap.
  route("register-interest/thank-you", "routes/registration/thank-you.tsx"),
  // Links from our emails: rendered on each request, never prerendered (app/prerendered-paths.ts).
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
  // The staff console (docs/decisions/133): served only by the console listener, rendered
  // on each request; contract/console.ts says who may use each route.
  route("console", "routes/console/layout.tsx", [
    index("routes/console/overview.tsx"),
    route("sign-in", "routes/console/sign-in.tsx"),
    route("enrol", "routes/console/enrol.tsx"),
    route("passkey", "routes/console/passkey.ts"),
    route("sign-out", "routes/console/sign-out.ts"),
    route("passkeys", "routes/console/passkeys.tsx"),
    route("staff", "routes/console/staff.tsx"),
    route("audit", "routes/console/audit.tsx"),
    route("people", "routes/console/people.tsx"),
    route("people/record", "routes/console/person.tsx"),
    route("people/copy", "routes/console/copy.tsx"),
    route("people/download", "routes/console/download.ts"),
    route("people/export", "routes/console/export.ts"),
    route("announcements", "routes/console/announcements.tsx"),
    route("announcements/draft", "routes/console/announcement.tsx"),
    route("*", "routes/console/not-found.tsx"),
  ]),
  route("*", "routes/not-found.tsx"),
] satisfies RouteConfig;
