import { data, redirect } from "react-router";
import { z } from "zod";

import type { Route } from "./+types/people";
import { EXPORTS_PER_DAY, type ErasureRecord } from "../../../contract/console.ts";
import { ButtonLink, Button } from "../../components/ui/button.tsx";
import { Field, Input } from "../../components/ui/field.tsx";
import { peopleCopy } from "../../content/people.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { ErasureList } from "../../features/console/person-record.tsx";

export function loader() {
  return null;
}

const lookUp = z.object({ intent: z.literal("find"), email: z.string().max(320) });

type Outcome = { missing: true; erasures: ErasureRecord[] } | { error: string };

/** A look-up is a POST, so the address never sits in a URL, a log or the browser's history. */
export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  const form = await args.request.formData().catch(() => null);
  const parsed = lookUp.safeParse(form ? Object.fromEntries(form) : null);
  if (!parsed.success)
    return data<Outcome>({ error: "That look-up was not understood." }, { status: 400 });
  const found = await operations.people.find(parsed.data.email);
  if ("ok" in found) return data<Outcome>({ error: found.message }, { status: 400 });
  if (found.id === null) return data<Outcome>({ missing: true, erasures: found.erasures });
  return redirect(`/console/people/record?id=${encodeURIComponent(found.id)}`, 303);
}

export const meta: Route.MetaFunction = () => consoleMeta(peopleCopy.title);

export default function People({ actionData }: Route.ComponentProps) {
  const outcome = actionData as Outcome | undefined;
  return (
    <>
      <h1 className="text-3xl">{peopleCopy.title}</h1>
      <p className="mt-4 max-w-2xl text-lg text-ink-soft">{peopleCopy.intro}</p>
      <form method="post" className="mt-6 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value="find" />
        <Field
          label={peopleCopy.findLabel}
          error={outcome && "error" in outcome ? outcome.error : undefined}
        >
          {(control) => (
            <Input {...control} type="email" name="email" autoComplete="off" required />
          )}
        </Field>
        <Button type="submit" className="self-start">
          {peopleCopy.findButton}
        </Button>
      </form>
      {outcome && "missing" in outcome ? (
        <div role="status" className="mt-6 rounded-card border border-line bg-surface p-4">
          <p className="font-semibold">{peopleCopy.missing}</p>
          <ErasureList erasures={outcome.erasures} />
        </div>
      ) : null}

      <h2 className="mt-10 text-2xl">{peopleCopy.exportTitle}</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">{peopleCopy.exportText(EXPORTS_PER_DAY)}</p>
      <ButtonLink to="/console/people/export" variant="secondary" className="mt-4" download>
        {peopleCopy.exportLink}
      </ButtonLink>
    </>
  );
}
