import * as Accordion from "@radix-ui/react-accordion";
import * as Collapsible from "@radix-ui/react-collapsible";
import { ChevronDown, Menu, X } from "lucide-react";
import { type FocusEvent, type KeyboardEvent, useLayoutEffect, useRef, useState } from "react";
import { NavLink } from "react-router";

import { mobileToggleClass } from "./nav-styles.ts";
import { headerCta, headerNav, isNavGroup } from "../../content/navigation.ts";
import { type Intent, restoreFocus } from "../../lib/use-on-demand.ts";
import { buttonVariants } from "../ui/button.tsx";

const linkClass =
  "flex min-h-12 items-center rounded-control px-3 text-lg text-ink hover:bg-sand aria-[current=page]:font-semibold aria-[current=page]:text-brand-800";

/**
 * The menu below the lg breakpoint: a Radix Collapsible toggle that reveals the links,
 * with About and TRT as a single-open Radix Accordion, so only one section is expanded
 * at a time. It loads on first intent (mobile-nav.tsx); `intent` says whether the
 * visitor already asked to open it and where focus was.
 */
export function MobileNavMenu({ intent }: { intent: Intent }) {
  const [open, setOpen] = useState(intent.open !== undefined);
  const triggerRef = useRef<HTMLButtonElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => restoreFocus(rootRef.current, intent.focus), [intent.focus]);
  // Links close the menu, so the new page is not hidden behind it.
  const close = () => setOpen(false);
  // The open panel covers the page: Escape closes it and returns to the toggle, and focus
  // that moves beyond it closes it, so focus never lands on something hidden beneath.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Escape") return;
    setOpen(false);
    triggerRef.current?.focus();
  };
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next)) setOpen(false);
  };

  return (
    <Collapsible.Root
      ref={rootRef}
      open={open}
      onOpenChange={setOpen}
      className="lg:hidden"
      onKeyDown={onKeyDown}
      onBlur={onBlur}
    >
      <Collapsible.Trigger
        ref={triggerRef}
        data-focus-key="toggle"
        className={mobileToggleClass}
        aria-label={open ? "Close menu" : "Open menu"}
      >
        {open ? (
          <X aria-hidden="true" className="size-6" />
        ) : (
          <Menu aria-hidden="true" className="size-6" />
        )}
      </Collapsible.Trigger>
      <Collapsible.Content className="fixed inset-x-0 top-[calc(var(--site-top)+var(--spacing-header))] bottom-0 z-40 overflow-y-auto border-t border-line bg-paper px-4 pt-4 pb-10">
        <nav aria-label="Main">
          <Accordion.Root type="single" collapsible className="mx-auto max-w-lg">
            <ul className="space-y-1">
              {headerNav.map((item) =>
                isNavGroup(item) ? (
                  <li key={item.id}>
                    <Accordion.Item value={item.id}>
                      <Accordion.Header asChild>
                        <div>
                          <Accordion.Trigger className="group flex min-h-12 w-full items-center justify-between rounded-control px-3 text-lg text-ink hover:bg-sand">
                            {item.label}
                            <ChevronDown
                              aria-hidden="true"
                              className="size-5 transition-transform group-data-[state=open]:rotate-180"
                            />
                          </Accordion.Trigger>
                        </div>
                      </Accordion.Header>
                      <Accordion.Content>
                        <ul className="mt-1 mb-2 ml-3 border-l border-line pl-3">
                          {item.links.map((link) => (
                            <li key={link.to}>
                              <NavLink to={link.to} className={linkClass} onClick={close}>
                                {link.label}
                              </NavLink>
                            </li>
                          ))}
                        </ul>
                      </Accordion.Content>
                    </Accordion.Item>
                  </li>
                ) : (
                  <li key={item.to}>
                    <NavLink to={item.to} end className={linkClass} onClick={close}>
                      {item.label}
                    </NavLink>
                  </li>
                ),
              )}
            </ul>
          </Accordion.Root>
          <div className="mx-auto mt-6 max-w-lg">
            <NavLink
              to={headerCta.to}
              className={buttonVariants({ size: "lg", className: "w-full" })}
            >
              {headerCta.label}
            </NavLink>
          </div>
        </nav>
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
