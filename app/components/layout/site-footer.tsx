import type { ReactNode } from "react";
import { Link } from "react-router";

import { BrandMark } from "./brand-mark.tsx";
import { awaitingApproval, siteFlags } from "../../config/site.ts";
import { clinic } from "../../content/clinic.ts";
import { footerNav } from "../../content/navigation.ts";

export function SiteFooter({ cookieSettings }: { cookieSettings: ReactNode }) {
  const year = new Date().getFullYear();
  return (
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
                    <a href={s.href} className="underline-offset-4 hover:underline" rel="noopener">
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
              &copy; {year} {clinic.legalName}. All rights reserved.
            </p>
            {cookieSettings}
          </div>
        </div>
      </div>
    </footer>
  );
}
