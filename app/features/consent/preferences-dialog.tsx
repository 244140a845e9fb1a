import * as Dialog from "@radix-ui/react-dialog";
import * as Switch from "@radix-ui/react-switch";
import { X } from "lucide-react";
import { useState } from "react";

import { useConsent } from "./consent-context.tsx";
import { type Consent, consentCategories, essentialOnly } from "./consent-record.ts";
import { Button } from "../../components/ui/button.tsx";
import { consentBannerText, consentCategoryText } from "../../content/cookies.ts";

/**
 * The cookie preferences dialog. It is loaded only when first opened (see
 * consent-banner.tsx), since Radix Dialog and Switch are about 14 KB gzipped.
 */
export default function PreferencesDialog() {
  const { consent, preferencesOpen, setPreferencesOpen, choose } = useConsent();
  // The dialog has no Radix Trigger (the banner and the footer both open it), so Radix
  // would drop focus on <body> when it closes. It goes back to the button that opened it.
  const [opener] = useState(() =>
    document.activeElement instanceof HTMLElement ? document.activeElement : null,
  );
  return (
    <Dialog.Root open={preferencesOpen} onOpenChange={setPreferencesOpen}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-[60] bg-ink/40" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (opener?.isConnected) opener.focus();
          }}
          className="fixed top-1/2 left-1/2 z-[61] max-h-[calc(100dvh-2rem)] w-[calc(100vw-2rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-card bg-surface p-6 shadow-card"
        >
          {/* Remounted on each open, so it starts from the stored choice. */}
          {preferencesOpen ? (
            <PreferencesForm initial={consent ?? essentialOnly} onSave={choose} />
          ) : null}
          <Dialog.Close
            className="absolute top-3 right-3 inline-flex size-11 items-center justify-center rounded-control text-muted hover:bg-sand"
            aria-label="Close"
          >
            <X aria-hidden="true" className="size-5" />
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function PreferencesForm({ initial, onSave }: { initial: Consent; onSave: (c: Consent) => void }) {
  const [draft, setDraft] = useState<Consent>(initial);
  return (
    <>
      <Dialog.Title className="pr-10 font-serif text-2xl">Cookie preferences</Dialog.Title>
      <Dialog.Description className="mt-2 text-sm text-ink-soft">
        Choose which kinds of cookies we may use. You can change this at any time from the link at
        the foot of every page.
      </Dialog.Description>
      <ul className="mt-5 divide-y divide-line">
        {consentCategories.map((category) => {
          const text = consentCategoryText[category];
          const id = `consent-${category}`;
          const locked = category === "essential";
          return (
            <li key={category} className="flex items-start justify-between gap-4 py-4">
              <div>
                <label htmlFor={id} className="font-semibold text-ink">
                  {text.label}
                </label>
                <p id={`${id}-description`} className="mt-1 text-sm text-muted">
                  {text.description}
                </p>
              </div>
              <Switch.Root
                id={id}
                aria-describedby={`${id}-description`}
                checked={locked ? true : draft[category]}
                disabled={locked}
                onCheckedChange={(checked) => setDraft((d) => ({ ...d, [category]: checked }))}
                className="relative mt-1 inline-flex h-7 w-12 shrink-0 items-center rounded-full bg-line transition-colors data-[disabled]:opacity-70 data-[state=checked]:bg-brand-700"
              >
                <Switch.Thumb className="block size-5 translate-x-1 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-6" />
              </Switch.Root>
            </li>
          );
        })}
      </ul>
      <div className="mt-4 flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={() => onSave(essentialOnly)}>
          {consentBannerText.essentialOnly}
        </Button>
        <Button onClick={() => onSave(draft)}>{consentBannerText.save}</Button>
      </div>
    </>
  );
}
