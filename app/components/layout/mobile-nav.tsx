import { ChevronDown, Menu, X } from "lucide-react";
import { useId } from "react";
import { NavLink } from "react-router";

import { headerCta, headerNav, isNavGroup } from "../../content/navigation.ts";
import { buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";

const mobileToggleClass =
  "inline-flex size-11 items-center justify-center rounded-control text-ink hover:bg-sand";

const linkClass =
  "flex min-h-12 items-center rounded-control px-3 text-lg text-ink hover:bg-sand aria-[current=page]:font-semibold aria-[current=page]:text-brand-800";

/** Shown while the menu is closed or open: the `<details>`'s own state decides. */
const whenClosed = "group-open/menu:hidden";
const whenOpen = "hidden group-open/menu:inline";

/**
 * Nothing newer than Safari 16 (decision 105): the browser opens and closes it without
 * JavaScript, CSS follows its state, and menu-script.ts adds one section at a time where
 * `<details name>` is missing, and Escape, outside presses and focus leaving.
 */
export function MobileNav() {
  const sectionName = useId();
  return (
    <details data-menu="phone" className="group/menu lg:hidden">
      <summary
        className={cn(
          mobileToggleClass,
          "cursor-pointer list-none [&::-webkit-details-marker]:hidden",
        )}
      >
        <Menu aria-hidden="true" className={cn("size-6", whenClosed)} />
        <X aria-hidden="true" className={cn("size-6", whenOpen)} />
        <span className={cn("sr-only", whenClosed)}>Open menu</span>
        <span className={cn("sr-only", whenOpen)}>Close menu</span>
      </summary>
      <div className="fixed inset-x-0 top-[calc(var(--site-top)+var(--spacing-header))] bottom-0 z-40 overflow-y-auto border-t border-line bg-paper px-4 pt-4 pb-10 text-ink">
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
                          <NavLink to={link.to} className={linkClass}>
                            {link.label}
                          </NavLink>
                        </li>
                      ))}
                    </ul>
                  </details>
                </li>
              ) : (
                <li key={item.to}>
                  <NavLink to={item.to} end className={linkClass}>
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
            >
              {headerCta.label}
            </NavLink>
          </div>
        </nav>
      </div>
    </details>
  );
}
