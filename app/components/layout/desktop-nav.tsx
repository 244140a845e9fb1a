import { ChevronDown } from "lucide-react";
import { type FocusEvent, useCallback, useEffect, useRef, useState } from "react";
import { NavLink } from "react-router";

import { navigationMenuDelays } from "../../config/ui.ts";
import { type NavGroup, headerNav, isNavGroup } from "../../content/navigation.ts";
import { cn } from "../ui/cn.ts";

const itemClass =
  "inline-flex h-10 items-center gap-1 rounded-control px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink";

/** How long the pointer may be away from an open submenu before it closes. */
const CLOSE_DELAY_MS = 150;

/**
 * The header menu from the lg breakpoint, as a disclosure menu (WAI-ARIA APG "disclosure
 * navigation"): About and TRT are buttons with aria-expanded that show a list of links.
 * Written by hand rather than with Radix NavigationMenu, which put about 12 KB gzipped on
 * every page (docs/decisions/046). It keeps the spec's delays: a submenu opens 200 ms
 * after the pointer rests on it, or at once if one was open within the last 300 ms.
 * Click or Enter toggles, Escape closes and returns focus to the button, and a submenu
 * closes when focus or the pointer leaves it.
 */
export function DesktopNav() {
  const [openId, setOpenId] = useState<string | null>(null);
  const rootRef = useRef<HTMLElement>(null);
  const timers = useRef({ open: 0, close: 0, closedAt: 0 });

  const clearTimers = useCallback(() => {
    window.clearTimeout(timers.current.open);
    window.clearTimeout(timers.current.close);
  }, []);
  const close = useCallback(() => {
    clearTimers();
    setOpenId(null);
    timers.current.closedAt = performance.now();
  }, [clearTimers]);

  useEffect(() => {
    if (openId === null) return;
    const onPointerDown = (event: PointerEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) close();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      const trigger = document.getElementById(triggerId(openId));
      const focusWasInside = rootRef.current?.contains(document.activeElement) ?? false;
      close();
      if (focusWasInside) trigger?.focus();
    };
    document.addEventListener("pointerdown", onPointerDown);
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("pointerdown", onPointerDown);
      document.removeEventListener("keydown", onKeyDown);
    };
  }, [openId, close]);

  useEffect(() => clearTimers, [clearTimers]);

  // `now` is the event's timeStamp, on the same clock as performance.now().
  const onPointerEnter = (id: string, pointerType: string, now: number) => {
    // Touch has no hover: a tap is a click.
    if (pointerType !== "mouse") return;
    clearTimers();
    if (openId === id) return;
    const skip =
      openId !== null || now - timers.current.closedAt < navigationMenuDelays.skipDelayDuration;
    if (skip) setOpenId(id);
    else {
      timers.current.open = window.setTimeout(
        () => setOpenId(id),
        navigationMenuDelays.delayDuration,
      );
    }
  };
  const onPointerLeave = (pointerType: string) => {
    if (pointerType !== "mouse") return;
    clearTimers();
    if (openId !== null) timers.current.close = window.setTimeout(close, CLOSE_DELAY_MS);
  };
  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    const next = event.relatedTarget as Node | null;
    if (next && !event.currentTarget.contains(next)) close();
  };

  return (
    <nav ref={rootRef} aria-label="Main" className="relative hidden lg:block">
      <ul className="flex items-center gap-1">
        {headerNav.map((item) =>
          isNavGroup(item) ? (
            <li
              key={item.id}
              className="relative"
              onPointerEnter={(e) => onPointerEnter(item.id, e.pointerType, e.timeStamp)}
              onPointerLeave={(e) => onPointerLeave(e.pointerType)}
              onBlur={onBlur}
            >
              <Submenu
                group={item}
                open={openId === item.id}
                onToggle={() => {
                  clearTimers();
                  if (openId === item.id) close();
                  else setOpenId(item.id);
                }}
                onNavigate={close}
              />
            </li>
          ) : (
            <li key={item.to}>
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
            </li>
          ),
        )}
      </ul>
    </nav>
  );
}

const triggerId = (groupId: string) => `nav-${groupId}-trigger`;

function Submenu({
  group,
  open,
  onToggle,
  onNavigate,
}: {
  group: NavGroup;
  open: boolean;
  onToggle: () => void;
  onNavigate: () => void;
}) {
  const listId = `nav-${group.id}-menu`;
  return (
    <>
      <button
        type="button"
        id={triggerId(group.id)}
        aria-expanded={open}
        aria-controls={listId}
        onClick={onToggle}
        className={cn(itemClass, "group aria-expanded:bg-sand aria-expanded:text-ink")}
      >
        {group.label}
        <ChevronDown
          aria-hidden="true"
          className="size-4 transition-transform group-aria-expanded:rotate-180"
        />
      </button>
      {/* Padding, not margin, bridges the gap, so the pointer never leaves the item on its way down. */}
      <div id={listId} hidden={!open} className="absolute top-full left-0 z-10 w-64 pt-2">
        <ul className="rounded-card border border-line bg-surface p-2 shadow-card">
          {group.links.map((link) => (
            <li key={link.to}>
              <NavLink
                to={link.to}
                onClick={onNavigate}
                className="block rounded-control px-3 py-2.5 text-ink-soft hover:bg-brand-50 hover:text-ink aria-[current=page]:font-semibold aria-[current=page]:text-brand-800"
              >
                {link.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </div>
    </>
  );
}
