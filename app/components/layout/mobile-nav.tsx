import { ChevronDown, Menu, X } from "lucide-react";
import { type FocusEvent, useId, useRef } from "react";
import { NavLink } from "react-router";

import { mobileToggleClass } from "./nav-styles.ts";
import { headerCta, headerNav, isNavGroup } from "../../content/navigation.ts";
import { buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";

const linkClass =
  "flex min-h-12 items-center rounded-control px-3 text-lg text-ink hover:bg-sand aria-[current=page]:font-semibold aria-[current=page]:text-brand-800";

/** Shown while the panel is closed or open: the wrapper's `:has(:popover-open)` decides. */
const whenClosed = "group-has-[:popover-open]/menu:hidden";
const whenOpen = "hidden group-has-[:popover-open]/menu:inline";

/**
 * The menu below the lg breakpoint, built from the platform so that it works before and
 * without JavaScript (decision 054):
 *
 * - the toggle is a `<button popovertarget>` and the panel a `popover`: the browser opens
 *   and closes it, closes it on Escape or a click outside, and returns focus to the toggle;
 * - the toggle's name ("Open menu" / "Close menu") and icon follow the panel's state
 *   through CSS, so they are right with JavaScript off too;
 * - About and TRT are `<details>` sharing a `name`, so one section is open at a time.
 *
 * With JavaScript, two small additions: following a link closes the panel (the new page
 * would otherwise sit behind it), and so does moving focus out of it, because the panel
 * covers the page and focus must never land on something hidden beneath it.
 */
export function MobileNav() {
  const panelRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  const sectionName = useId();

  const close = () => panelRef.current?.hidePopover();
  const onBlur = (event: FocusEvent<HTMLDivElement>) => {
    const next = event.relatedTarget as Node | null;
    if (!next || event.currentTarget.contains(next) || next === toggleRef.current) return;
    close();
  };

  return (
    <div className="group/menu lg:hidden">
      <button ref={toggleRef} type="button" popoverTarget={panelId} className={mobileToggleClass}>
        <Menu aria-hidden="true" className={cn("size-6", whenClosed)} />
        <X aria-hidden="true" className={cn("size-6", whenOpen)} />
        <span className={cn("sr-only", whenClosed)}>Open menu</span>
        <span className={cn("sr-only", whenOpen)}>Close menu</span>
      </button>
      <div
        ref={panelRef}
        id={panelId}
        popover="auto"
        onBlur={onBlur}
        className="fixed inset-x-0 top-[calc(var(--site-top)+var(--spacing-header))] bottom-0 m-0 h-auto max-h-none w-auto max-w-none overflow-y-auto border-x-0 border-t border-b-0 border-line bg-paper px-4 pt-4 pb-10 text-ink"
      >
        <nav aria-label="Main">
          <ul className="mx-auto max-w-lg space-y-1">
            {headerNav.map((item) =>
              isNavGroup(item) ? (
                <li key={item.id}>
                  <details name={sectionName} className="group/section">
                    <summary className="flex min-h-12 w-full cursor-pointer list-none items-center justify-between rounded-control px-3 text-lg text-ink hover:bg-sand [&::-webkit-details-marker]:hidden">
                      {item.label}
                      <ChevronDown
                        aria-hidden="true"
                        className="size-5 transition-transform group-open/section:rotate-180"
                      />
                    </summary>
                    <ul className="mt-1 mb-2 ml-3 border-l border-line pl-3">
                      {item.links.map((link) => (
                        <li key={link.to}>
                          <NavLink to={link.to} className={linkClass} onClick={close}>
                            {link.label}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </details>
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
              className={buttonVariants({ size: "lg", className: "w-full" })}
              onClick={close}
            >
              {headerCta.label}
            </NavLink>
          </div>
        </nav>
      </div>
    </div>
  );
}
