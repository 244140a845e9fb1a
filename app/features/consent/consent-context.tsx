import {
  type ReactNode,
  createContext,
  use,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
} from "react";

import {
  CONSENT_STORAGE_KEY,
  type Consent,
  parseStoredConsent,
  serializeConsent,
} from "./consent-record.ts";

type ConsentState = {
  /** `null` until the visitor has chosen (or before the stored choice has been read). */
  consent: Consent | null;
  /**
   * False only once a valid stored choice has been read. Before that (server render and
   * hydration) the banner is rendered, and the inline script hides it before the first paint
   * when a choice is stored (consent-script.ts).
   */
  bannerOpen: boolean;
  preferencesOpen: boolean;
  setPreferencesOpen: (open: boolean) => void;
  choose: (consent: Consent) => void;
};

const ConsentContext = createContext<ConsentState | null>(null);

// localStorage as an external store: the server snapshot is `undefined` (not read yet), so
// prerendered HTML holds the banner, and the inline script decides whether it is seen.
const listeners = new Set<() => void>();

function subscribe(listener: () => void) {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === CONSENT_STORAGE_KEY) listener();
  };
  window.addEventListener("storage", onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", onStorage);
  };
}

function readStorage(): string | null {
  try {
    return window.localStorage.getItem(CONSENT_STORAGE_KEY);
  } catch {
    return null;
  }
}

export function ConsentProvider({ children }: { children: ReactNode }) {
  const raw = useSyncExternalStore(subscribe, readStorage, () => undefined);
  const [preferencesOpen, setPreferencesOpen] = useState(false);
  const parsed = useMemo(() => (raw === undefined ? null : parseStoredConsent(raw)), [raw]);

  useEffect(() => {
    // Keep <html data-consent> true to what React knows, should the inline script have disagreed.
    if (parsed !== null) {
      document.documentElement.dataset.consent = parsed.kind === "stored" ? "stored" : "ask";
    }
    if (parsed?.kind === "invalid") {
      console.error("Could not read the stored cookie consent; asking again.", parsed.error);
    }
  }, [parsed]);

  const value = useMemo<ConsentState>(() => {
    const choose = (next: Consent) => {
      try {
        window.localStorage.setItem(CONSENT_STORAGE_KEY, serializeConsent(next));
      } catch (error) {
        console.error("Could not save the cookie consent choice.", error);
      }
      setPreferencesOpen(false);
      for (const listener of listeners) listener();
    };
    return {
      consent: parsed?.kind === "stored" ? parsed.consent : null,
      bannerOpen: parsed?.kind !== "stored",
      preferencesOpen,
      setPreferencesOpen,
      choose,
    };
  }, [parsed, preferencesOpen]);

  return <ConsentContext value={value}>{children}</ConsentContext>;
}

/** The visitor's cookie choice. Throws when used outside <ConsentProvider>. */
export function useConsent(): ConsentState {
  const value = use(ConsentContext);
  if (value === null) {
    throw new Error("useConsent must be used within a ConsentProvider");
  }
  return value;
}
