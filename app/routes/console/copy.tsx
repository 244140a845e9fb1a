import type { Route } from "./+types/copy";
import { clinic } from "../../content/clinic.ts";
import { dateTime, peopleCopy } from "../../content/people.ts";
import { staffServices } from "../../features/console/access.server.ts";
import { consoleMeta } from "../../features/console/console-shell.tsx";
import { PersonRecord } from "../../features/console/person-record.tsx";

export async function loader(args: Route.LoaderArgs) {
  const { operations } = staffServices(args);
  const id = (new URL(args.request.url).searchParams.get("id") ?? "").slice(0, 100);
  const copy = id ? await operations.people.view(id, "print") : null;
  return { copy, at: new Date().toISOString() };
}

export const meta: Route.MetaFunction = () => consoleMeta(peopleCopy.printTitle);

/** The subject-access copy to print or save as PDF: the console's frame is not printed. */
export default function Copy({ loaderData }: Route.ComponentProps) {
  const { copy, at } = loaderData;
  return (
    <>
      <h1 className="text-3xl print:text-2xl">{peopleCopy.printTitle}</h1>
      {copy ? (
        <>
          <p className="mt-4 max-w-2xl text-lg">
            {peopleCopy.printIntro(clinic.name, dateTime(at))}
          </p>
          <p className="mt-2 max-w-2xl text-ink-soft print:hidden">{peopleCopy.printHint}</p>
          <PersonRecord registrations={copy.registrations} erasures={copy.erasures} />
        </>
      ) : (
        <>
          <p className="mt-4 text-lg text-ink-soft">{peopleCopy.noRecord}</p>
          <p className="mt-6">
            <a
              href="/console/people"
              className="font-semibold text-brand-800 underline underline-offset-4"
            >
              {peopleCopy.lookUp}
            </a>
          </p>
        </>
      )}
    </>
  );
}
