import { createContext, use } from "react";

export const NonceProvider = createContext<string | undefined>(undefined);

export const useNonce = () => use(NonceProvider);
