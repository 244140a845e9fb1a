import { ChevronDown, Menu, X } from "lucide-react";
import { type FocusEvent, useEffect, useRef, useState } from "react";
import { NavLink } from "react-router";

import { headerCta, headerNav, isNavGroup } from "../../content/navigation.ts";
import { buttonVariants } from "../ui/button.tsx";

const linkClass =
  "flex min-h-12 items-center rounded-control px-3 text-lg text-ink hover:bg-sand aria-[current=page]:font-semibold aria-[current=page]:text-brand-800";

/**
 * The menu below the lg breakpoint: a toggle that reveals the links, with About and TRT
 * as disclosure sections of which only one is expanded at a time. Plain buttons with
 * aria-expanded rather than Radix Collapsible and Accordion, to keep them off every first
 * load (docs/decisions/046). Escape closes the menu and returns focus to the toggle; so
 * does moving focus out of it, since the open panel covers the page beneath.
 */
export function MobileNav() {
  const [open, setOpen] = useState(false);
  const [section, setSection] = useState<string | null>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);

  const close = () => {
    setOpen(false);
    setSection(null);
  };
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setOpen(false);
      setSection(null);
      toggleRef.current?.focus();
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (open && next && !event.currentTarget.contains(next)) close();
  };

  return (
    <div className="lg:hidden" onBlur={onBlur}>
      <button
        ref={toggleRef}
        type="button"
        aria-expanded={open}
        aria-controls="mobile-menu"
        aria-label={open ? "Close menu" : "Open menu"}
        onClick={() => (open ? close() : setOpen(true))}
        className="inline-flex size-11 items-center justify-center rounded-control text-ink hover:bg-sand"
      >
        {open ? (
          <X aria-hidden="true" className="size-6" />
        ) : (
          <Menu aria-hidden="true" className="size-6" />
        )}
      </button>
      <div
        id="mobile-menu"
        hidden={!open}
        className="fixed inset-x-0 top-[calc(var(--site-top)+var(--spacing-header))] bottom-0 z-40 overflow-y-auto border-t border-line bg-paper px-4 pt-4 pb-10"
      >
        <nav aria-label="Main">
          <ul className="mx-auto max-w-lg space-y-1">
            {headerNav.map((item) =>
              isNavGroup(item) ? (
                <li key={item.id}>
                  <button
                    type="button"
                    aria-expanded={section === item.id}
                    aria-controls={`mobile-menu-${item.id}`}
                    onClick={() => setSection(section === item.id ? null : item.id)}
                    className="group flex min-h-12 w-full items-center justify-between rounded-control px-3 text-lg text-ink hover:bg-sand"
                  >
                    {item.label}
                    <ChevronDown
                      aria-hidden="true"
                      className="size-5 transition-transform group-aria-expanded:rotate-180"
                    />
                  </button>
                  <ul
                    id={`mobile-menu-${item.id}`}
                    hidden={section !== item.id}
                    className="mt-1 mb-2 ml-3 border-l border-line pl-3"
                  >
                    {item.links.map((link) => (
                      <li key={link.to}>
                        <NavLink to={link.to} className={linkClass} onClick={close}>
                          {link.label}
                        </NavLink>
                      </li>
                    ))}
                  </ul>
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
          <div className="mx-auto mt-6 max-w-lg">
            <NavLink
              to={headerCta.to}
              onClick={close}
              className={buttonVariants({ size: "lg", className: "w-full" })}
            >
              {headerCta.label}
            </NavLink>
          </div>
        </nav>
      </div>
    </div>
  );
}
