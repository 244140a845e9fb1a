import { createContext, use } from "react";

const NonceContext = createContext<string | undefined>(undefined);

/** Carries the per-request CSP nonce from entry.server to <Scripts> in the root layout. */
export const NonceProvider = NonceContext;

export function useNonce(): string | undefined {
  return use(NonceContext);
}
