import * as NavigationMenu from "@radix-ui/react-navigation-menu";
import { ChevronDown } from "lucide-react";
import { NavLink } from "react-router";

import { navigationMenuDelays } from "../../config/ui.ts";
import { headerNav, isNavGroup } from "../../content/navigation.ts";
import { cn } from "../ui/cn.ts";

const itemClass =
  "inline-flex h-10 items-center gap-1 rounded-control px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink data-[state=open]:bg-sand data-[state=open]:text-ink";

/** The header menu from the lg breakpoint: Radix NavigationMenu with the spec's delays. */
export function DesktopNav() {
  return (
    <NavigationMenu.Root
      delayDuration={navigationMenuDelays.delayDuration}
      skipDelayDuration={navigationMenuDelays.skipDelayDuration}
      aria-label="Main"
      className="relative hidden lg:block"
    >
      <NavigationMenu.List className="flex items-center gap-1">
        {headerNav.map((item) =>
          isNavGroup(item) ? (
            <NavigationMenu.Item key={item.id} value={item.id} className="relative">
              <NavigationMenu.Trigger className={cn(itemClass, "group")}>
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
                <NavLink
                  to={item.to}
                  end
                  className={cn(
                    itemClass,
                    "aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8",
                  )}
                >
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
