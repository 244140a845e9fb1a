import { CheckCircle2, Loader2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";

import {
  type FieldErrors,
  type RegistrationFormResult,
  sendRegistration,
  submitWithRetry,
  fieldNames,
  isMissingRequired,
  newIdempotencyKey,
  readSubmission,
  registrationLimits as limits,
  retryPolicy,
  UPDATES_TICKED,
  validateRegistration,
} from "./form.ts";
import { attributionFields, registrationPaths } from "../../../contract/registrations.ts";
import { Button, ButtonLink } from "../../components/ui/button.tsx";
import { Card } from "../../components/ui/card.tsx";
import { Field, Input, Textarea } from "../../components/ui/field.tsx";
import { registrationCopy as copy, currentConsentVersion } from "../../content/registration.ts";
import { useHydrated } from "../../lib/island.tsx";
import { Toaster, notify } from "../../lib/toaster.tsx";

const fieldOrder = ["name", "email", "phone", "message"] as const;

/** Without JavaScript a plain POST; with it, validated first and stamped with its key and time. */
function RegistrationPanel({ initialResult }: { initialResult: RegistrationFormResult | null }) {
  const [result, setResult] = useState(initialResult ?? undefined);
  const [pending, setPending] = useState(false);
  const hydrated = useHydrated();
  const updatesId = useId();
  const keyRef = useRef<HTMLInputElement>(null);
  const timestampRef = useRef<HTMLInputElement>(null);
  const submittingRef = useRef(false);
  const [clientErrors, setClientErrors] = useState<FieldErrors | null>(null);

  // The prerendered page is the same for everyone, so the key is made here (decision 036).
  useEffect(() => {
    if (keyRef.current && keyRef.current.value === "") keyRef.current.value = newIdempotencyKey();
  }, []);

  const values = result && "values" in result ? result.values : undefined;
  const serverErrors = result?.status === "invalid" ? result.fieldErrors : {};
  const errors = clientErrors ?? serverErrors;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // A second click while the first is on its way sends nothing more.
    if (submittingRef.current) return;
    const form = event.currentTarget;
    const submission = readSubmission(new FormData(form));
    const validation = validateRegistration(submission);
    if (!validation.success) {
      setClientErrors(validation.fieldErrors);
      if (isMissingRequired(submission)) notify.error(copy.toasts.missingRequired);
      const first = fieldOrder.find((field) => validation.fieldErrors[field]);
      if (first) form.querySelector<HTMLElement>(`[name="${fieldNames[first]}"]`)?.focus();
      return;
    }
    setClientErrors(null);
    if (timestampRef.current) timestampRef.current.value = new Date().toISOString();
    submittingRef.current = true;
    const fields = new FormData(form);
    setPending(true);
    try {
      const answer = await submitWithRetry(() => sendRegistration(fields), retryPolicy);
      if (answer.status === "success") notify.success(copy.toasts.success);
      setResult(answer);
    } catch (error) {
      console.error(error);
      notify.error(copy.toasts.failure);
      setResult({ status: "failed" });
    } finally {
      setPending(false);
      submittingRef.current = false;
    }
  }

  // Once a field is corrected, its message goes; new messages wait for the next submit.
  function handleChange(event: FormEvent<HTMLFormElement>) {
    const target = event.target;
    if (!(target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement)) return;
    const field = fieldOrder.find((f) => fieldNames[f] === target.name);
    if (!field || !errors[field]) return;
    const validation = validateRegistration(readSubmission(new FormData(event.currentTarget)));
    if (validation.success || !validation.fieldErrors[field]) {
      setClientErrors((current) => ({ ...(current ?? serverErrors), [field]: undefined }));
    }
  }

  return (
    <>
      {result?.status === "success" ? (
        <ThankYouCard moveFocus />
      ) : (
        <Card className="p-6 sm:p-9">
          <h2 className="text-2xl">{copy.formTitle}</h2>
          <p className="mt-2 text-sm text-muted">{copy.required}</p>
          <form
            method="post"
            action={registrationPaths.form}
            // Native validation stops a submit before our messages show; it stays without JS.
            noValidate={hydrated}
            onSubmit={handleSubmit}
            onChange={handleChange}
            // The page script fills the visit's source in here, with analytics consent only.
            data-visit-source=""
            className="relative mt-7 flex flex-col gap-6"
          >
            {fieldOrder.map((field) => {
              const text: { label: string; hint?: string } = copy.fields[field];
              const required = field === "name" || field === "email";
              return (
                <Field
                  key={field}
                  label={text.label}
                  hint={text.hint}
                  optionalText={required ? undefined : copy.optional}
                  error={errors[field]}
                >
                  {(control) =>
                    field === "message" ? (
                      <Textarea
                        {...control}
                        name={fieldNames.message}
                        rows={5}
                        maxLength={limits.message}
                        defaultValue={values?.[field]}
                      />
                    ) : (
                      <Input
                        {...control}
                        name={fieldNames[field]}
                        type={{ name: "text", email: "email", phone: "tel" }[field]}
                        autoComplete={copy.fields[field].autoComplete}
                        spellCheck={field === "email" ? false : undefined}
                        required={required}
                        maxLength={limits[field]}
                        defaultValue={values?.[field]}
                      />
                    )
                  }
                </Field>
              );
            })}

            <div className="flex items-start gap-3">
              <input
                id={updatesId}
                type="checkbox"
                name={fieldNames.updates}
                value={UPDATES_TICKED}
                defaultChecked={result && "wantsUpdates" in result ? result.wantsUpdates : false}
                aria-describedby={`${updatesId}-hint`}
                className="mt-0.5 size-6 shrink-0 cursor-pointer accent-brand-700"
              />
              <div className="flex flex-col gap-1">
                <label
                  htmlFor={updatesId}
                  className="cursor-pointer text-base font-semibold text-ink"
                >
                  {copy.updates.label}
                  <span className="ml-1.5 font-normal text-muted">{copy.optional}</span>
                </label>
                <p id={`${updatesId}-hint`} className="text-sm text-muted">
                  {copy.updates.hint}
                </p>
              </div>
            </div>

            {/* For bots only: off-screen, hidden from screen readers, out of the tab order. */}
            <div
              aria-hidden="true"
              className="absolute top-auto -left-[10000px] h-px w-px overflow-hidden"
            >
              <label htmlFor="registration-website">Leave this field empty</label>
              <input
                id="registration-website"
                type="text"
                name={fieldNames.honeypot}
                tabIndex={-1}
                autoComplete="off"
                defaultValue=""
              />
            </div>
            <input type="hidden" name={fieldNames.consentVersion} value={currentConsentVersion} />
            <input ref={keyRef} type="hidden" name={fieldNames.idempotencyKey} />
            <input ref={timestampRef} type="hidden" name={fieldNames.clientTimestamp} />
            {Object.values(attributionFields).map((name) => (
              <input key={name} type="hidden" name={name} defaultValue="" />
            ))}

            {result?.status === "unavailable" || result?.status === "failed" ? (
              <p
                role={result.status === "unavailable" ? "alert" : undefined}
                className="rounded-control bg-warning-bg px-4 py-3 text-sm text-warning"
              >
                {result.status === "unavailable" ? result.message : copy.failureNote}
              </p>
            ) : null}

            <div className="flex flex-col gap-4 border-t border-line pt-6 sm:flex-row sm:items-center sm:gap-6">
              <Button
                type="submit"
                size="lg"
                disabled={pending}
                aria-busy={pending || undefined}
                className="shrink-0"
              >
                {pending ? <Loader2 aria-hidden="true" className="animate-spin" /> : null}
                {pending ? copy.pending : copy.submit}
              </Button>
              <p className="text-sm leading-relaxed text-muted">
                {copy.consent.text}{" "}
                <a
                  href="/privacy-policy"
                  className="font-medium text-brand-800 underline underline-offset-2"
                >
                  {copy.consent.linkText}
                </a>
                .
              </p>
            </div>
          </form>
        </Card>
      )}
      <Toaster />
    </>
  );
}

/** Replaces the form once stored, and is the body of the no-JavaScript thank-you page. */
export function ThankYouCard({ moveFocus }: { moveFocus: boolean }) {
  const thanks = copy.thankYou;
  const cardRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The form disappears under the visitor's focus; the card comes into view below the header.
  useEffect(() => {
    if (!moveFocus) return;
    headingRef.current?.focus({ preventScroll: true });
    cardRef.current?.scrollIntoView({ block: "start" });
  }, [moveFocus]);

  return (
    <Card ref={cardRef} className="flex scroll-mt-4 flex-col items-start gap-5 p-6 sm:p-10">
      <CheckCircle2 aria-hidden="true" className="size-10 text-success" />
      <h2 id="thank-you-heading" ref={headingRef} tabIndex={-1} className="text-3xl">
        {thanks.title}
      </h2>
      <p className="text-lg leading-relaxed text-ink-soft">{thanks.body}</p>
      <ol className="flex list-decimal flex-col gap-3 pl-6 text-base leading-relaxed text-ink-soft marker:font-semibold marker:text-brand-800">
        {thanks.steps.map((step) => (
          <li key={step} className="pl-1">
            {step}
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-2">
        <h3 className="text-lg">{thanks.meanwhileTitle}</h3>
        <ul className="flex flex-col gap-2 text-base">
          {thanks.meanwhile.map((item) => (
            <li key={item.to}>
              <a href={item.to} className="font-medium text-brand-800 underline underline-offset-2">
                {item.text}
              </a>
            </li>
          ))}
        </ul>
      </div>
      <ButtonLink to="/">{thanks.home}</ButtonLink>
    </Card>
  );
}

export const registrationIsland = { name: "registration", Component: RegistrationPanel };
