import { ChevronDown } from "lucide-react";
import { type FocusEvent, type PointerEvent, useState } from "react";
import { NavLink } from "react-router";

import { navItemClass, navTopLinkClass } from "./nav-styles.ts";
import { headerNav, isNavGroup } from "../../content/navigation.ts";
import { type Intent, useOnDemand } from "../../lib/use-on-demand.ts";
import { cn } from "../ui/cn.ts";

const loadMenu = () => import("./desktop-nav-menu.tsx");

/**
 * The desktop header menu. Radix NavigationMenu (desktop-nav-menu.tsx) is about 9 KB
 * gzipped, so it loads when the visitor first points at or focuses the menu, not with
 * the page (docs/decisions/053). Until then this stand-in shows the same closed menu:
 * the links work, and a button pressed before the code arrives opens its submenu when
 * it does. Phones never load it, since the menu is hidden below the lg breakpoint.
 */
export function DesktopNav() {
  const [menu, request] = useOnDemand(loadMenu);
  const [intent, setIntent] = useState<Intent>({});
  if (menu) return <menu.DesktopNavMenu intent={intent} />;

  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const focus = event.target.dataset.focusKey;
    setIntent((current) => ({ ...current, focus }));
    request();
  };

  // The submenu button the pointer rests on, if any, for the menu to pick up on arrival.
  const onPointerOver = (event: PointerEvent<HTMLElement>) => {
    const button = (event.target as Element).closest<HTMLElement>("button[data-focus-key]");
    setIntent((current) => ({ ...current, hover: button?.dataset.focusKey }));
    request();
  };

  return (
    <nav
      aria-label="Main"
      className="relative hidden lg:block"
      onPointerOver={onPointerOver}
      onPointerLeave={() => setIntent((current) => ({ ...current, hover: undefined }))}
      onFocus={onFocus}
    >
      <ul className="flex items-center gap-1">
        {headerNav.map((item) =>
          isNavGroup(item) ? (
            <li key={item.id} className="relative">
              <button
                type="button"
                aria-expanded="false"
                data-state="closed"
                data-focus-key={item.id}
                className={cn(navItemClass, "group")}
                onClick={() => {
                  setIntent((current) => ({ ...current, open: item.id }));
                  request();
                }}
              >
                {item.label}
                <ChevronDown aria-hidden="true" className="size-4" />
              </button>
            </li>
          ) : (
            <li key={item.to}>
              <NavLink to={item.to} end data-focus-key={item.to} className={navTopLinkClass}>
                {item.label}
              </NavLink>
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}
