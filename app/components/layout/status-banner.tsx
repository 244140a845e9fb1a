import { ShieldCheck } from "lucide-react";

import { siteFlags } from "../../config/site.ts";

export function StatusBanner() {
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
