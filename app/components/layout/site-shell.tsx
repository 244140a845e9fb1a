import { ChevronDown, Menu, ShieldCheck, X } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Link, NavLink } from "react-router";

import { awaitingApproval, siteFlags } from "../../config/site.ts";
import { clinic } from "../../content/clinic.ts";
import { footerNav, headerCta, headerNav } from "../../content/navigation.ts";
import { buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";

export function SiteShell({
  children,
  cookieSettings,
  consentBanner,
}: {
  children: ReactNode;
  // Passed in, as layout does not import features; the banner comes early in the tab order.
  cookieSettings: ReactNode;
  consentBanner: ReactNode;
}) {
  const sectionName = useId();
  return (
    <>
      <a
        href="#main"
        className="sr-only z-[70] rounded-control bg-brand-900 px-4 py-3 font-semibold text-white focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus-visible:-outline-offset-4"
      >
        Skip to main content
      </a>
      {consentBanner}
      {siteFlags.showRegulatoryNotice ? (
        <div
          role="region"
          aria-label="Regulatory status"
          className="fixed inset-x-0 top-0 z-50 flex h-banner items-center justify-center gap-2 bg-brand-900 px-3 text-center text-[0.8125rem] font-medium text-white min-[400px]:text-sm"
        >
          <ShieldCheck aria-hidden="true" className="size-4 shrink-0 text-brand-200" />
          <p className="truncate">{siteFlags.cqcText}</p>
        </div>
      ) : null}
      <header className="fixed inset-x-0 top-(--site-top) z-40 h-header border-b border-line/80 bg-paper">
        <div className="mx-auto flex h-full max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
          <Link to="/" className="rounded-control" aria-label={`${clinic.name}, home`}>
            <BrandMark />
          </Link>
          <nav aria-label="Main" className="relative hidden lg:block">
            <ul className="flex items-center gap-1">
              {headerNav.map((item) =>
                "links" in item ? (
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
          <div className="flex items-center gap-2">
            <NavLink
              to={headerCta.to}
              className={cn(buttonVariants({ size: "sm" }), "max-sm:hidden")}
            >
              {headerCta.label}
            </NavLink>
            {/* Native `<details>`, nothing past Safari 16; menu-script.ts adds the rest (decision 105). */}
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
                      "links" in item ? (
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
          </div>
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="min-h-[60vh] pt-[calc(var(--site-top)+var(--spacing-header))] outline-none"
      >
        {children}
      </main>
      <footer id="site-footer" className="bg-brand-900 text-brand-100">
        <div className="mx-auto max-w-7xl px-4 pt-14 pb-10 sm:px-6 lg:px-8">
          <div className="grid gap-10 lg:grid-cols-[1.3fr_2fr]">
            <div className="max-w-sm space-y-4">
              <BrandMark inverse />
              <p className="text-sm leading-relaxed text-brand-100">
                Specialist, doctor-led care for men with symptoms of low testosterone. Assessment,
                blood testing and ongoing monitoring, delivered remotely across the UK.
              </p>
              <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label="Social media">
                {clinic.social.map((s) =>
                  s.href ? (
                    <li key={s.label}>
                      <a
                        href={s.href}
                        className="underline-offset-4 hover:underline"
                        rel="noopener"
                      >
                        {s.label}
                      </a>
                    </li>
                  ) : (
                    <li key={s.label} className="text-brand-200">
                      {s.label} <span className="text-xs">(coming soon)</span>
                    </li>
                  ),
                )}
              </ul>
            </div>
            <nav aria-label="Footer" className="grid grid-cols-2 gap-8 sm:grid-cols-3">
              {footerNav.map((group) => (
                <div key={group.id}>
                  <h2
                    id={group.id}
                    className="font-sans text-sm font-semibold tracking-wide text-white uppercase"
                  >
                    {group.label}
                  </h2>
                  <ul aria-labelledby={group.id} className="mt-4 space-y-1">
                    {group.links.map((link) => (
                      <li key={link.to}>
                        <Link
                          to={link.to}
                          className="inline-flex min-h-8 items-center text-sm text-brand-100 underline-offset-4 hover:text-white hover:underline"
                        >
                          {link.label}
                        </Link>
                      </li>
                    ))}
                  </ul>
                </div>
              ))}
            </nav>
          </div>

          <div className="mt-12 space-y-3 border-t border-white/15 pt-8 text-xs leading-relaxed text-brand-200">
            <p>
              <strong className="font-semibold text-white">Regulatory status:</strong> {clinic.name}{" "}
              {awaitingApproval ? (
                "is applying for registration with the Care Quality Commission (CQC). We do not provide any clinical service, prescribe or take bookings until registration is granted. Our clinicians are registered with the General Medical Council, and medicines will be prescribed and supplied in line with MHRA requirements."
              ) : (
                <>
                  is registered with the Care Quality Commission (CQC). {siteFlags.gmcRegistration}.
                </>
              )}
            </p>
            <p>
              The information on this website is general and does not replace advice from your own
              doctor. If you feel unwell or need urgent help, contact your GP or call NHS 111; in an
              emergency call 999.
            </p>
            <p>
              {clinic.legalName}. {clinic.registeredOffice}, company number {clinic.companyNumber}.
              Registered office: {clinic.address.street}, {clinic.address.locality}{" "}
              {clinic.address.postcode}.
            </p>
            <div className="flex flex-wrap items-center justify-between gap-3 pt-2">
              <p>
                &copy; {new Date().getFullYear()} {clinic.legalName}. All rights reserved.
              </p>
              {cookieSettings}
            </div>
          </div>
        </div>
      </footer>
    </>
  );
}

const navItemClass =
  "inline-flex h-10 items-center gap-1 rounded-control px-3 text-[0.95rem] font-medium text-ink-soft transition-colors hover:bg-sand hover:text-ink";

const navTopLinkClass = cn(
  navItemClass,
  "aria-[current=page]:text-brand-800 aria-[current=page]:underline aria-[current=page]:decoration-2 aria-[current=page]:underline-offset-8",
);

const linkClass =
  "flex min-h-12 items-center rounded-control px-3 text-lg text-ink hover:bg-sand aria-[current=page]:font-semibold aria-[current=page]:text-brand-800";

const whenClosed = "group-open/menu:hidden";
const whenOpen = "hidden group-open/menu:inline";

function BrandMark({ inverse = false }: { inverse?: boolean }) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
        <circle cx="16" cy="16" r="15" className={inverse ? "fill-white/10" : "fill-brand-700"} />
        <path
          d="M16 5a11 11 0 0 1 0 22M16 5a11 11 0 0 0 0 22M5 16h22"
          fill="none"
          strokeWidth="1.6"
          className="stroke-white"
        />
      </svg>
      <span
        className={`font-serif text-xl leading-none font-semibold tracking-tight whitespace-nowrap ${inverse ? "text-white" : "text-ink"}`}
      >
        {clinic.shortName}
        {/* A real space, so the link's visible text matches its accessible name. */}{" "}
        <span
          className={`ml-0.5 font-sans text-sm font-medium tracking-normal ${inverse ? "text-brand-100" : "text-muted"}`}
        >
          Men&rsquo;s Health
        </span>
      </span>
    </span>
  );
}
