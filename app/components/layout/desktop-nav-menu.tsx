import * as NavigationMenu from "@radix-ui/react-navigation-menu";
import { ChevronDown } from "lucide-react";
import { type MouseEvent, useEffect, useLayoutEffect, useRef, useState } from "react";
import { NavLink } from "react-router";

import { navItemClass, navTopLinkClass } from "./nav-styles.ts";
import { navigationMenuDelays } from "../../config/ui.ts";
import { headerNav, isNavGroup } from "../../content/navigation.ts";
import { type Intent, restoreFocus } from "../../lib/use-on-demand.ts";
import { cn } from "../ui/cn.ts";

/**
 * The header menu from the lg breakpoint: Radix NavigationMenu with the spec's delays.
 * It loads on first intent (desktop-nav.tsx); `intent` carries what the visitor did to
 * the stand-in meanwhile: the submenu they opened and the element that had focus.
 */
export function DesktopNavMenu({ intent }: { intent: Intent }) {
  const [value, setValue] = useState(intent.open ?? "");
  const rootRef = useRef<HTMLElement>(null);
  // The submenu the pointer opened, while the pointer is still on its button; and whether
  // a press on a button is being handled (Radix's toggle calls onValueChange at once).
  const pointerOpened = useRef<string | null>(null);
  const pressing = useRef(false);
  const onValueChange = (next: string) => {
    pointerOpened.current = next && !pressing.current ? next : null;
    setValue(next);
  };
  // Radix toggles a submenu on every press. The pointer opens one after its delay (at once
  // when moving across from another), so a visitor who points and then presses would
  // close what he meant to open. The first mouse press after the pointer opened it keeps
  // it open; the next one, or one after the pointer has left and come back, closes it.
  // Enter and Space (detail 0) toggle as before (docs/decisions/093).
  const onTriggerClick = (event: MouseEvent, item: string) => {
    if (event.detail > 0 && pointerOpened.current === item) {
      pointerOpened.current = null;
      event.preventDefault();
      return;
    }
    pressing.current = true;
    queueMicrotask(() => (pressing.current = false));
  };
  const onTriggerLeave = (item: string) => {
    if (pointerOpened.current === item) pointerOpened.current = null;
  };
  // Before paint, so a keyboard user's focus never visibly drops to the page.
  useLayoutEffect(() => restoreFocus(rootRef.current, intent.focus), [intent.focus]);
  // The pointing that loaded this menu happened before Radix was listening: a pointer
  // still resting on a button counts as pointing at it now, so the usual delay applies.
  useEffect(() => {
    if (!intent.hover) return;
    const resting = rootRef.current?.querySelector(
      `button[data-focus-key="${CSS.escape(intent.hover)}"]`,
    );
    resting?.dispatchEvent(
      new PointerEvent("pointermove", { bubbles: true, pointerType: "mouse" }),
    );
  }, [intent.hover]);

  return (
    <NavigationMenu.Root
      ref={rootRef}
      value={value}
      onValueChange={onValueChange}
      delayDuration={navigationMenuDelays.delayDuration}
      skipDelayDuration={navigationMenuDelays.skipDelayDuration}
      aria-label="Main"
      className="relative hidden lg:block"
    >
      <NavigationMenu.List className="flex items-center gap-1">
        {headerNav.map((item) =>
          isNavGroup(item) ? (
            <NavigationMenu.Item key={item.id} value={item.id} className="relative">
              <NavigationMenu.Trigger
                type="button"
                data-focus-key={item.id}
                className={cn(navItemClass, "group")}
                onClick={(event) => onTriggerClick(event, item.id)}
                onPointerLeave={() => onTriggerLeave(item.id)}
              >
                {item.label}
                <ChevronDown
                  aria-hidden="true"
                  className="size-4 transition-transform group-data-[state=open]:rotate-180"
                />
              </NavigationMenu.Trigger>
              <NavigationMenu.Content className="absolute top-full left-0 mt-2 w-64 rounded-card border border-line bg-surface p-2 shadow-card">
                <ul>
                  {item.links.map((link) => (
                    <li key={link.to}>
                      <NavigationMenu.Link asChild>
                        <NavLink
                          to={link.to}
                          className="block rounded-control px-3 py-2.5 text-ink-soft hover:bg-brand-50 hover:text-ink aria-[current=page]:font-semibold aria-[current=page]:text-brand-800"
                        >
                          {link.label}
                        </NavLink>
                      </NavigationMenu.Link>
                    </li>
                  ))}
                </ul>
              </NavigationMenu.Content>
            </NavigationMenu.Item>
          ) : (
            <NavigationMenu.Item key={item.to}>
              <NavigationMenu.Link asChild>
                <NavLink to={item.to} end data-focus-key={item.to} className={navTopLinkClass}>
                  {item.label}
                </NavLink>
              </NavigationMenu.Link>
            </NavigationMenu.Item>
          ),
        )}
      </NavigationMenu.List>
    </NavigationMenu.Root>
  );
}
