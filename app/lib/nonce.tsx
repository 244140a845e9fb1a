import { createContext, use } from "react";

/** Carries the per-request CSP nonce from entry.server to the scripts it renders. */
export const NonceProvider = createContext<string | undefined>(undefined);

export const useNonce = () => use(NonceProvider);
