import { Link, NavLink } from "react-router";

import { BrandMark } from "./brand-mark.tsx";
import { DesktopNav } from "./desktop-nav.tsx";
import { MobileNav } from "./mobile-nav.tsx";
import { clinic } from "../../content/clinic.ts";
import { headerCta } from "../../content/navigation.ts";
import { buttonVariants } from "../ui/button.tsx";
import { cn } from "../ui/cn.ts";

export function SiteHeader() {
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
