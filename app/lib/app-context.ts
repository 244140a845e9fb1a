import { createContext } from "react-router";

import type { AppServices } from "../../contract/app-services.ts";

/**
 * The React Router context key for the services the Node server hands to route actions.
 * It is exported from app/entry.server.tsx, so server/ sets it on the very object the
 * bundle reads. The type is the neutral contract in contract/.
 */
export const appServicesContext = createContext<AppServices>();
