import type { ComponentProps } from "react";

import { cn } from "./cn.ts";

/** `padding="none"` leaves the padding to the caller: cn() does not merge. */
export function Card({
  padding = "standard",
  className,
  ...props
}: ComponentProps<"div"> & { padding?: "standard" | "none" }) {
  return (
    <div
      className={cn(
        "rounded-card border border-line bg-surface shadow-card",
        padding === "standard" && "p-6 sm:p-7",
        className,
      )}
      {...props}
    />
  );
}
