/**
 * Lets the visitor change a cookie choice after the banner is gone: the page script opens the
 * preferences dialog (consent-script.ts). Hidden with JavaScript off, where it could do nothing.
 */
export function CookieSettingsButton() {
  return (
    <button
      type="button"
      data-consent-action="open"
      className="min-h-8 text-brand-100 underline underline-offset-2 hover:text-white"
    >
      Cookie settings
    </button>
  );
}
