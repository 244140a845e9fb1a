import { createContext } from "react-router";

import type { RegistrationService } from "../../contract/registrations.ts";

/**
 * What the Node server hands to route actions. The key is exported from
 * app/entry.server.tsx, so server/ sets it on the very object the bundle reads.
 */
export type AppServices = {
  registrations: RegistrationService;
  /** The per-request nonce for the Content-Security-Policy of server-rendered HTML. */
  nonce: string;
};

export const appServicesContext = createContext<AppServices>();
