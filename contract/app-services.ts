import type { RegistrationService } from "./registrations.ts";

/**
 * What the Node server hands to route actions through React Router context
 * (docs/decisions/007). The context key itself is app-side (app/lib/app-context.ts,
 * exported from app/entry.server.tsx); server/ and app/ both import this type from here.
 */
export type AppServices = {
  registrations: RegistrationService;
  /** The per-request nonce for the Content-Security-Policy of server-rendered HTML. */
  nonce: string;
};
