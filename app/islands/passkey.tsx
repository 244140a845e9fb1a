/**
 * The passkey ceremony (docs/decisions/133): the console's one script, no React. It asks
 * /console/passkey for options (a challenge the server keeps), lets the browser and the
 * authenticator do the ceremony, and posts the answer back; the server checks it and, on
 * sign-in or enrolment, sets the session cookie. Then the console opens.
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

type Answer = { ok: boolean; message?: string; options?: unknown };

async function post(body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch("/console/passkey", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as Answer | null;
  return answer ?? { ok: false, message: "The console did not answer. Please try again." };
}

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-passkey]")) {
  const status = button.parentElement?.querySelector<HTMLElement>("[data-passkey-status]");
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  const needsScript = button.parentElement?.querySelector<HTMLElement>("[data-passkey-nojs]");
  if (needsScript) needsScript.hidden = true;
  if (!browserSupportsWebAuthn()) {
    say("This browser cannot use passkeys. Please use an up-to-date browser.");
    continue;
  }
  button.hidden = false;
  button.addEventListener("click", () => {
    const kind = button.dataset.passkey ?? "";
    const invite = button.dataset.invite;
    button.disabled = true;
    say("Waiting for your passkey…");
    void (async () => {
      try {
        const options = await post({ intent: "options", kind, invite });
        if (!options.ok) throw new Error(options.message);
        const optionsJSON = options.options as never;
        const response =
          kind === "sign-in"
            ? await startAuthentication({ optionsJSON })
            : await startRegistration({ optionsJSON });
        const done = await post({ intent: "verify", kind, invite, response });
        if (!done.ok) throw new Error(done.message);
        say("Done.");
        window.location.assign(kind === "add" ? "/console/passkeys" : "/console");
      } catch (error) {
        const name = error instanceof Error ? error.name : "";
        say(
          name === "NotAllowedError" || name === "AbortError"
            ? "The passkey was not used (cancelled or timed out). Please try again."
            : error instanceof Error && error.message
              ? error.message
              : "Something went wrong. Please try again.",
        );
        button.disabled = false;
      }
    })();
  });
}
