import { data } from "react-router";
import { z } from "zod";

import type { Route } from "./+types/person";
import type { ErasureRecord } from "../../../contract/console.ts";
import { Button } from "../../components/ui/button.tsx";
import { Field, Input } from "../../components/ui/field.tsx";
import { erasureWords, peopleCopy } from "../../content/people.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { PersonRecord } from "../../features/console/person-record.tsx";

const idOf = (request: Request) =>
  (new URL(request.url).searchParams.get("id") ?? "").slice(0, 100);

export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const id = idOf(args.request);
  const copy = id ? await operations.people.view(id, "view") : null;
  return { id, copy };
}

const change = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("resend") }),
  z.object({ intent: z.literal("erase"), email: z.string().max(320) }),
]);

type Outcome =
  | { done: "resent" }
  | { done: "erased"; erasures: ErasureRecord[] }
  | { error: string; field?: "email" };

export async function action(args: Route.ActionArgs) {
  const { operations } = staffServices(args);
  const id = idOf(args.request);
  const form = await args.request.formData().catch(() => null);
  const parsed = change.safeParse(form ? Object.fromEntries(form) : null);
  if (!id || !parsed.success)
    return data<Outcome>({ error: "That request was not understood." }, { status: 400 });
  if (parsed.data.intent === "resend") {
    const result = await operations.people.resendConfirmation(id);
    if (!result.ok) return data<Outcome>({ error: result.message }, { status: 409 });
    return data<Outcome>({ done: "resent" });
  }
  const result = await operations.people.erase(id, parsed.data.email);
  if (!result.ok) return data<Outcome>({ error: result.message, field: "email" }, { status: 400 });
  return data<Outcome>({ done: "erased", erasures: result.erasures });
}

export const meta: Route.MetaFunction = () => consoleMeta(peopleCopy.recordTitle);

const linkStyle = "font-semibold text-brand-800 underline underline-offset-4";

export default function Person({ loaderData, actionData }: Route.ComponentProps) {
  const { id, copy } = loaderData;
  const outcome = actionData as Outcome | undefined;
  if (outcome && "done" in outcome && outcome.done === "erased") {
    return (
      <>
        <h1 className="text-3xl">{peopleCopy.erasedTitle}</h1>
        <div role="status" className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4">
          <p className="font-semibold">{peopleCopy.erased}</p>
          <ul className="mt-3 flex list-disc flex-col gap-1 pl-6">
            {outcome.erasures.map((e) => (
              <li key={e.erasedAt}>{erasureWords(e)}</li>
            ))}
          </ul>
        </div>
        <p className="mt-6">
          <a href="/console/people" className={linkStyle}>
            {peopleCopy.lookUp}
          </a>
        </p>
      </>
    );
  }
  if (!copy) {
    return (
      <>
        <h1 className="text-3xl">{peopleCopy.recordTitle}</h1>
        <p className="mt-4 text-lg text-ink-soft">{peopleCopy.noRecord}</p>
        <p className="mt-6">
          <a href="/console/people" className={linkStyle}>
            {peopleCopy.lookUp}
          </a>
        </p>
      </>
    );
  }
  const newest = copy.registrations.at(-1);
  const error = outcome && "error" in outcome ? outcome : undefined;
  const query = `?id=${encodeURIComponent(id)}`;
  return (
    <>
      <h1 className="text-3xl break-words">
        {peopleCopy.recordTitle}: {newest?.name}
      </h1>
      <p className="mt-2">
        <a href="/console/people" className={linkStyle}>
          {peopleCopy.lookUp}
        </a>
      </p>
      {outcome && "done" in outcome ? (
        <p
          role="status"
          className="mt-6 rounded-card border border-brand-700 bg-brand-50 p-4 font-semibold"
        >
          {peopleCopy.resent}
        </p>
      ) : null}
      {error && !error.field ? (
        <p role="alert" className="mt-6 font-semibold text-danger">
          {error.error}
        </p>
      ) : null}

      <PersonRecord registrations={copy.registrations} erasures={copy.erasures} />

      <h2 className="mt-10 text-2xl">{peopleCopy.copyLinks}</h2>
      <ul className="mt-3 flex flex-col gap-2">
        <li>
          <a href={`/console/people/download${query}`} className={linkStyle} download>
            {peopleCopy.downloadLink}
          </a>
        </li>
        <li>
          <a href={`/console/people/copy${query}`} className={linkStyle}>
            {peopleCopy.printLink}
          </a>
        </li>
      </ul>

      <h2 className="mt-10 text-2xl">{peopleCopy.resendTitle}</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">{peopleCopy.resendText}</p>
      <form method="post" className="mt-4">
        <input type="hidden" name="intent" value="resend" />
        <Button type="submit" variant="secondary">
          {peopleCopy.resendButton}
        </Button>
      </form>

      <h2 className="mt-10 text-2xl">{peopleCopy.eraseTitle}</h2>
      <p className="mt-2 max-w-2xl text-ink-soft">{peopleCopy.eraseText}</p>
      <form method="post" className="mt-4 flex max-w-md flex-col gap-4">
        <input type="hidden" name="intent" value="erase" />
        <Field
          label={peopleCopy.eraseLabel}
          error={error?.field === "email" ? error.error : undefined}
        >
          {(control) => (
            <Input {...control} type="email" name="email" autoComplete="off" required />
          )}
        </Field>
        <Button type="submit" className="self-start">
          {peopleCopy.eraseButton}
        </Button>
      </form>
    </>
  );
}
