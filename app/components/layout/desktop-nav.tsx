import { ChevronDown } from "lucide-react";
import { NavLink } from "react-router";

import { headerNav, isNavGroup } from "../../content/navigation.ts";
import { cn } from "../ui/cn.ts";

const navItemClass =
  "inline-flex h-10 items-center gap-1 rounded-control px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink";

const navTopLinkClass = cn(
  navItemClass,
  "aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8",
);

/** Native `<details>` work without JavaScript; menu-script.ts adds the rest (decision 105). */
export function DesktopNav() {
  return (
    <nav aria-label="Main" className="relative hidden lg:block">
      <ul className="flex items-center gap-1">
        {headerNav.map((item) =>
          isNavGroup(item) ? (
            <li key={item.id}>
              <details data-menu="desktop" className="group/sub relative">
                <summary
                  className={cn(
                    navItemClass,
                    "cursor-pointer list-none group-open/sub:bg-sand group-open/sub:text-ink [&::-webkit-details-marker]:hidden",
                  )}
                >
                  {item.label}
                  <ChevronDown
                    aria-hidden="true"
                    className="size-4 transition-transform group-open/sub:rotate-180"
                  />
                </summary>
                <div className="absolute top-full left-0 z-50 mt-2 w-64 rounded-card border border-line bg-surface p-2 shadow-card">
                  <ul>
                    {item.links.map((link) => (
                      <li key={link.to}>
                        <NavLink
                          to={link.to}
                          className="block rounded-control px-3 py-2.5 text-ink-soft hover:bg-brand-50 hover:text-ink aria-[current=page]:font-semibold aria-[current=page]:text-brand-800"
                        >
                          {link.label}
                        </NavLink>
                      </li>
                    ))}
                  </ul>
                </div>
              </details>
            </li>
          ) : (
            <li key={item.to}>
              <NavLink to={item.to} end className={navTopLinkClass}>
                {item.label}
              </NavLink>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
