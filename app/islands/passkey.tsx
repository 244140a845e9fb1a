/**
 * The passkey ceremony (docs/decisions/133): the console's one script, no React. It asks
 * /console/passkey for options (a challenge the server keeps), lets the browser and the
 * authenticator do the ceremony, and posts the answer back; the server checks it and, on
 * sign-in or enrolment, sets the session cookie. Then the console opens. Adding a passkey,
 * and the forms that remove one or end sessions, first confirm it is the person with one
 * of their passkeys (docs/decisions/178).
 */
import {
  browserSupportsWebAuthn,
  startAuthentication,
  startRegistration,
} from "@simplewebauthn/browser";

type Answer = { ok: boolean; message?: string; options?: unknown; confirmedUntil?: string };

async function post(body: Record<string, unknown>): Promise<Answer> {
  const response = await fetch("/console/passkey", {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => null)) as Answer | null;
  return answer ?? { ok: false, message: "The console did not answer. Please try again." };
}

const ceremonyFailed = (answer: Answer) => new Error(answer.message);

/**
 * Adding or removing a passkey and ending sessions first confirm the signed-in person with
 * one of their passkeys (docs/decisions/178), unless this session did in the last minutes.
 */
async function confirmItIsYou(say: (text: string) => void) {
  const options = await post({ intent: "options", kind: "confirm" });
  if (!options.ok) throw ceremonyFailed(options);
  if (options.confirmedUntil) return;
  say("First confirm it is you with one of your passkeys…");
  const response = await startAuthentication({ optionsJSON: options.options as never });
  const done = await post({ intent: "verify", kind: "confirm", response });
  if (!done.ok) throw ceremonyFailed(done);
}

function explain(error: unknown): string {
  const name = error instanceof Error ? error.name : "";
  if (name === "NotAllowedError" || name === "AbortError")
    return "The passkey was not used (cancelled or timed out). Please try again.";
  if (name === "InvalidStateError")
    return "This device or security key already holds one of your passkeys. Add one on another device or key.";
  return error instanceof Error && error.message
    ? error.message
    : "Something went wrong. Please try again.";
}

const supported = browserSupportsWebAuthn();

for (const button of document.querySelectorAll<HTMLButtonElement>("button[data-passkey]")) {
  const status = button.parentElement?.querySelector<HTMLElement>("[data-passkey-status]");
  const say = (text: string) => {
    if (status) status.textContent = text;
  };
  const needsScript = button.parentElement?.querySelector<HTMLElement>("[data-passkey-nojs]");
  if (needsScript) needsScript.hidden = true;
  if (!supported) {
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
        if (kind === "add") {
          await confirmItIsYou(say);
          say("Now create the new passkey…");
        }
        const options = await post({ intent: "options", kind, invite });
        if (!options.ok) throw ceremonyFailed(options);
        const optionsJSON = options.options as never;
        const response =
          kind === "sign-in"
            ? await startAuthentication({ optionsJSON })
            : await startRegistration({ optionsJSON });
        const done = await post({ intent: "verify", kind, invite, response });
        if (!done.ok) throw ceremonyFailed(done);
        say("Done.");
        window.location.assign(kind === "add" ? "/console/passkeys" : "/console");
      } catch (error) {
        say(explain(error));
        button.disabled = false;
      }
    })();
  });
}

// Forms that remove a passkey or end sessions: confirm first, then post as without script.
const formStatus = document.querySelector<HTMLElement>("[data-confirm-status]");
for (const form of supported
  ? document.querySelectorAll<HTMLFormElement>("form[data-passkey-confirm]")
  : []) {
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const say = (text: string) => {
      if (formStatus) formStatus.textContent = text;
    };
    const buttons = [...form.querySelectorAll("button")];
    for (const b of buttons) b.disabled = true;
    void (async () => {
      try {
        await confirmItIsYou(say);
        say("Confirmed.");
        form.submit();
      } catch (error) {
        say(explain(error));
        for (const b of buttons) b.disabled = false;
      }
    })();
  });
}
