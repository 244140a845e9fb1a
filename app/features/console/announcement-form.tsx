import { z } from "zod";

import type { AnnouncementInput } from "../../../contract/console.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field, Input, Textarea } from "../../components/ui/field.tsx";
import { announcementAudiences } from "../../content/console.ts";

/** What the compose form posts; the operations check the words themselves. */
export const announcementFields = z.object({
  subject: z.string().max(1_000),
  body: z.string().max(40_000),
  audience: z.enum(["all", "updates"]),
});

/** Subject, text and audience: for a new announcement and for changing a draft. */
export function AnnouncementForm({
  values,
  intent,
  submitLabel,
  error,
}: {
  values?: AnnouncementInput;
  /** The hidden intent a draft's page needs; none for a new announcement. */
  intent?: string;
  submitLabel: string;
  error?: string;
}) {
  return (
    <form method="post" className="mt-4 flex max-w-2xl flex-col gap-5">
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      {error ? (
        <p role="alert" className="font-semibold text-danger">
          {error}
        </p>
      ) : null}
      <Field label="Subject" hint="One line, at most 150 characters.">
        {(control) => (
          <Input
            {...control}
            name="subject"
            required
            maxLength={150}
            autoComplete="off"
            defaultValue={values?.subject}
          />
        )}
      </Field>
      <Field
        label="Text"
        hint="Plain text. Leave an empty line between paragraphs. Each person is greeted by their name, and the unsubscribe link is added at the end."
      >
        {(control) => (
          <Textarea
            {...control}
            name="body"
            required
            rows={10}
            maxLength={20_000}
            defaultValue={values?.body}
          />
        )}
      </Field>
      <fieldset className="flex flex-col gap-2">
        <legend className="font-semibold">Who receives it</legend>
        {(Object.keys(announcementAudiences) as (keyof typeof announcementAudiences)[]).map(
          (audience) => (
            <label key={audience} className="flex min-h-11 items-center gap-2">
              <input
                type="radio"
                name="audience"
                value={audience}
                defaultChecked={(values?.audience ?? "all") === audience}
                className="size-5 shrink-0"
              />
              {announcementAudiences[audience]}
            </label>
          ),
        )}
      </fieldset>
      <Button type="submit" className="self-start">
        {submitLabel}
      </Button>
    </form>
  );
}
