import { useState } from "react";

import { RegistrationForm } from "./registration-form.tsx";
import type { RegistrationFormResult } from "./result.ts";
import { sendRegistration } from "./send-registration.ts";
import { submitWithRetry } from "./submit-with-retry.ts";
import { ThankYouCard } from "./thank-you-card.tsx";
import { retryPolicy } from "../../config/ui.ts";
import { registrationCopy } from "../../content/registration.ts";
import { defineIsland } from "../../lib/island.tsx";
import { notify } from "../../lib/notify.ts";
import { Toaster } from "../../lib/toaster.tsx";

/**
 * The registration form, then its thank-you card in the same place. `initialResult` is
 * the server's answer when the form was posted without JavaScript and came back with
 * errors. With JavaScript each submission is sent with retries (network failures, 5xx,
 * 429: the same body and idempotency key each time), and the visitor is told how it went.
 */
function RegistrationPanel({ initialResult }: { initialResult: RegistrationFormResult | null }) {
  const [result, setResult] = useState(initialResult ?? undefined);
  const [pending, setPending] = useState(false);

  async function send(fields: FormData) {
    setPending(true);
    try {
      const answer = await submitWithRetry(() => sendRegistration(fields), {
        policy: retryPolicy,
      });
      if (answer.status === "success") notify.success(registrationCopy.toasts.success);
      setResult(answer);
    } catch (error) {
      console.error(error);
      notify.error(registrationCopy.toasts.failure);
      setResult({ status: "failed" });
    } finally {
      setPending(false);
    }
  }

  return (
    <>
      {result?.status === "success" ? (
        <ThankYouCard moveFocus />
      ) : (
        <RegistrationForm
          result={result}
          pending={pending}
          onSend={(fields) => void send(fields)}
        />
      )}
      <Toaster />
    </>
  );
}

/** The one part of /register-interest that runs in the browser (docs/decisions/126). */
export const registrationIsland = defineIsland("registration", RegistrationPanel);
