import { cn } from "../ui/cn.ts";

/** The look of a desktop menu entry: a submenu's toggle or a top-level link. */
export const navItemClass =
  "inline-flex h-10 items-center gap-1 rounded-control px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink";

/** A top-level desktop link (Home, Pricing ...), underlined when it is the current page. */
export const navTopLinkClass = cn(
  navItemClass,
  "aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8",
);

export const mobileToggleClass =
  "inline-flex size-11 items-center justify-center rounded-control text-ink hover:bg-sand";
