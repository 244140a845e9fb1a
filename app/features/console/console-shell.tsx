import type { ReactNode } from "react";

import { consoleNav, type StaffMember } from "../../../contract/console.ts";
import { Button } from "../../components/ui/button.tsx";
import { clinic } from "../../content/clinic.ts";
import { consoleName, roleLabels } from "../../content/console.ts";

/** A console page's title: "Staff | Staff console | <clinic>". */
export function consoleTitle(page: string): string {
  return `${page} | ${consoleName} | ${clinic.name}`;
}

/** The meta of a console page: its title, and never indexed. */
export function consoleMeta(page: string) {
  return [{ title: consoleTitle(page) }, { name: "robots", content: "noindex" }];
}

/**
 * The console's frame: none of the public shell (no banner, header, footer or consent).
 * A skip link, the clinic's name, the navigation for the staff member's role and a
 * sign-out button that posts; then the page.
 */
export function ConsoleShell({
  staff,
  current,
  children,
}: {
  staff: Pick<StaffMember, "email" | "role"> | null;
  /** The path of the page shown, to mark its link. */
  current: string;
  children: ReactNode;
}) {
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[70] rounded-control bg-brand-900 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus-visible:-outline-offset-4 print:hidden"
      >
        Skip to main content
      </a>
      <header className="border-b border-line bg-surface print:hidden">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-x-6 gap-y-3 px-4 py-4 sm:px-6">
          <p className="flex flex-col">
            <span className="font-serif text-xl font-semibold text-brand-900">{clinic.name}</span>
            <span className="text-sm text-ink-soft">{consoleName}</span>
          </p>
          {staff ? (
            <div className="flex flex-wrap items-center gap-3 text-sm text-ink-soft">
              <span>
                {staff.email} ({roleLabels[staff.role]})
              </span>
              <form method="post" action="/console/sign-out">
                <Button type="submit" variant="secondary" size="sm">
                  Sign out
                </Button>
              </form>
            </div>
          ) : null}
        </div>
        {staff ? (
          <nav aria-label="Console" className="mx-auto max-w-5xl px-4 pb-3 sm:px-6">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {consoleNav(staff.role).map((item) => (
                <li key={item.to}>
                  <a
                    href={item.to}
                    aria-current={item.to === current ? "page" : undefined}
                    className="inline-flex min-h-11 items-center font-semibold text-brand-800 underline-offset-4 hover:underline aria-[current=page]:underline"
                  >
                    {item.label}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto max-w-5xl px-4 py-8 outline-none sm:px-6 print:max-w-none print:p-0"
      >
        {children}
      </main>
    </>
  );
}
