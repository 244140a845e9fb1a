import { preloadModule } from "react-dom";
import builtIslands from "virtual:islands";

import { Button } from "../../components/ui/button.tsx";
import { useNonce } from "../../lib/nonce.tsx";

/**
 * The one part of the console that needs JavaScript: a WebAuthn ceremony, run by the
 * module script app/islands/passkey.tsx (no React) when the button is pressed. Without
 * JavaScript the button stays hidden and the page says why; the script swaps the two.
 */
export function PasskeyButton({
  kind,
  label,
  invite,
}: {
  kind: "sign-in" | "enrol" | "add";
  label: string;
  invite?: string;
}) {
  const nonce = useNonce();
  const script = builtIslands.passkey;
  if (script) for (const href of script.imports) preloadModule(href, { as: "script" });
  return (
    <div className="flex flex-col items-start gap-3">
      {/* Not <noscript>: a browser whose scripts are blocked some other way shows it too. */}
      <p data-passkey-nojs className="font-semibold text-ink">
        {kind === "sign-in" ? "Signing in" : "Creating a passkey"} needs a passkey and JavaScript:
        turn JavaScript on for this site, then reload the page.
      </p>
      <Button type="button" data-passkey={kind} data-invite={invite} hidden>
        {label}
      </Button>
      <p data-passkey-status role="status" className="text-base text-ink-soft" />
      {script ? <script type="module" src={script.src} nonce={nonce} /> : null}
    </div>
  );
}
