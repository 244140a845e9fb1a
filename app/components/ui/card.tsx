import type { ComponentProps } from "react";

import { cn } from "./cn.ts";

export function Card({ className, ...props }: ComponentProps<"div">) {
  return (
    <div
      className={cn("rounded-card border border-line bg-surface p-6 shadow-card sm:p-7", className)}
      {...props}
    />
  );
}
