import { Info, ShieldAlert } from "lucide-react";
import type { ReactNode } from "react";

import { awaitingApproval } from "../../config/site.ts";
import { cn } from "../ui/cn.ts";

export function MedicalNote({ className }: { className?: string }) {
  return (
    <aside
      aria-label="Medical information notice"
      className={cn(
        "flex gap-3 rounded-card border border-line bg-surface px-5 py-4 text-sm leading-relaxed text-ink-soft",
        className,
      )}
    >
      <Info aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-brand-700" />
      <p>
        This page is general information, not medical advice. Treatment is only ever prescribed
        after a clinical assessment. If you are worried about your health, speak to your GP, or call
        NHS 111 for urgent help.
      </p>
    </aside>
  );
}

export function ApprovalNotice({
  children,
  className,
}: {
  children: ReactNode;
  className?: string;
}) {
  if (!awaitingApproval) return null;
  return (
    <div
      role="note"
      className={cn(
        "flex gap-3 rounded-card border border-warning/30 bg-warning-bg px-5 py-4 text-sm leading-relaxed text-warning",
        className,
      )}
    >
      <ShieldAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0" />
      <div>{children}</div>
    </div>
  );
}
