import { ChevronDown, Menu, ShieldCheck, X } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link, NavLink } from "react-router";

import { BrandMark } from "./brand-mark.tsx";
import { SiteFooter } from "./site-footer.tsx";
import { siteFlags } from "../../config/site.ts";
import { clinic } from "../../content/clinic.ts";
import { headerCta, headerNav, isNavGroup } from "../../content/navigation.ts";
import { buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";

export function SiteShell({
  children,
  cookieSettings,
  consentBanner,
}: {
  children: ReactNode;
  /** The consent feature's footer button: layout does not import features. */
  cookieSettings: ReactNode;
  /** The consent banner: first after the skip link, so it comes early in the tab order. */
  consentBanner: ReactNode;
}) {
  return (
    <>
      {/* Its ring is drawn inside: it floats over both the dark banner and the light header. */}
      <a
        href="#main"
        className="sr-only z-[70] rounded-control bg-brand-900 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus-visible:-outline-offset-4"
      >
        Skip to main content
      </a>
      {consentBanner}
      <StatusBanner />
      <SiteHeader />
      <main
        id="main"
        tabIndex={-1}
        className="min-h-[60vh] pt-[calc(var(--site-top)+var(--spacing-header))] outline-none"
      >
        {children}
      </main>
      <SiteFooter cookieSettings={cookieSettings} />
    </>
  );
}

function StatusBanner() {
  if (!siteFlags.showRegulatoryNotice) return null;
  return (
    <div
      role="region"
      aria-label="Regulatory status"
      className="fixed inset-x-0 top-0 z-50 flex h-banner items-center justify-center gap-2 bg-brand-900 px-3 text-center text-[0.8125rem] font-medium text-white min-[400px]:text-sm"
    >
      <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-brand-200" />
      {/* Slightly smaller type below 400px, so the whole line fits a 320px screen. */}
      <p className="truncate">{siteFlags.cqcText}</p>
    </div>
  );
}

function SiteHeader() {
  return (
    <header className="fixed inset-x-0 top-(--site-top) z-40 h-header border-b border-line/80 bg-paper">
      <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        <Link to="/" className="rounded-control" aria-label={`${clinic.name}, home`}>
          <BrandMark />
        </Link>
        <DesktopNav />
        <div className="flex items-center gap-2">
          <NavLink
            to={headerCta.to}
            className={cn(buttonVariants({ size: "sm" }), "max-sm:hidden")}
          >
            {headerCta.label}
          </NavLink>
          <MobileNav />
        </div>
      </div>
    </header>
  );
}

const navItemClass =
  "inline-flex h-10 items-center gap-1 rounded-control px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink";

const navTopLinkClass = cn(
  navItemClass,
  "aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8",
);

/** Native `<details>` work without JavaScript; menu-script.ts adds the rest (decision 105). */
function DesktopNav() {
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
function MobileNav() {
  const sectionName = useId();
  return (
    <details data-menu="phone" className="group/menu lg:hidden">
      <summary className="inline-flex size-11 cursor-pointer list-none items-center justify-center rounded-control text-ink hover:bg-sand [&::-webkit-details-marker]:hidden">
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
