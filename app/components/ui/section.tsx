import type { ReactNode } from "react";

import { cn } from "./cn.ts";

/** `padding="none"` leaves the vertical padding to the caller: cn() does not merge. */
export function Section({
  id,
  title,
  intro,
  tone = "plain",
  width = "default",
  padding = "standard",
  className,
  children,
}: {
  id?: string;
  title?: string;
  intro?: ReactNode;
  tone?: "plain" | "sand" | "surface" | "brand";
  width?: "default" | "narrow" | "wide";
  padding?: "standard" | "none";
  className?: string;
  children?: ReactNode;
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section
      id={id}
      aria-labelledby={title ? headingId : undefined}
      className={cn(
        padding === "standard" && "py-14 sm:py-20",
        tone === "sand" && "bg-sand/60",
        tone === "surface" && "bg-surface",
        tone === "brand" && "bg-brand-900 text-white",
        className,
      )}
    >
      <div
        className={cn(
          "mx-auto px-4 sm:px-6 lg:px-8",
          { narrow: "max-w-3xl", default: "max-w-5xl", wide: "max-w-7xl" }[width],
        )}
      >
        {title ? (
          <h2
            id={headingId}
            className={cn("text-3xl sm:text-4xl", tone === "brand" && "text-white")}
          >
            {title}
          </h2>
        ) : null}
        {intro ? (
          <div
            className={cn(
              "mt-4 max-w-3xl text-lg leading-relaxed",
              tone === "brand" ? "text-brand-100" : "text-ink-soft",
            )}
          >
            {intro}
          </div>
        ) : null}
        <div className={title || intro ? "mt-10" : undefined}>{children}</div>
      </div>
    </section>
  );
}
