import { preloadPreferences } from "./consent-banner.tsx";
import { useConsent } from "./consent-context.tsx";

/** Lets the visitor change a cookie choice after the banner is gone. */
export function CookieSettingsButton() {
  const { setPreferencesOpen } = useConsent();
  return (
    <button
      type="button"
      onClick={() => setPreferencesOpen(true)}
      onPointerEnter={preloadPreferences}
      onFocus={preloadPreferences}
      className="min-h-8 text-brand-100 underline underline-offset-2 hover:text-white"
    >
      Cookie settings
    </button>
  );
}
