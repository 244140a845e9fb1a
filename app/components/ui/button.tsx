import { type VariantProps, cva } from "class-variance-authority";
import type { ComponentProps } from "react";

import { cn } from "./cn.ts";

// Height, padding and type size belong to `size` alone: cn() does not merge (decision 052).
export const buttonVariants = cva(
  "inline-flex items-center justify-center gap-2 rounded-control font-semibold transition-colors disabled:cursor-not-allowed disabled:opacity-60 [&_svg]:size-4 [&_svg]:shrink-0",
  {
    variants: {
      variant: {
        primary: "bg-brand-700 text-white hover:bg-brand-800",
        secondary: "border border-brand-700 bg-surface text-brand-800 hover:bg-brand-50",
        quiet: "text-brand-800 underline-offset-4 hover:underline",
        inverse: "bg-white text-brand-900 hover:bg-brand-50",
        outlineInverse: "border border-white/70 text-white hover:bg-white/10",
      },
      size: {
        md: "min-h-11 px-5 py-2.5 text-base",
        lg: "min-h-12 px-6 py-2.5 text-lg",
        sm: "min-h-10 px-4 py-2 text-sm",
        flush: "min-h-11 py-2.5 text-base",
      },
    },
    defaultVariants: { variant: "primary", size: "md" },
  },
);

type Variants = VariantProps<typeof buttonVariants>;

export function Button({
  className,
  variant,
  size,
  type = "button",
  ...props
}: ComponentProps<"button"> & Variants) {
  return (
    <button type={type} className={cn(buttonVariants({ variant, size }), className)} {...props} />
  );
}

/** A plain `<a>`: no page runs React Router in the browser (docs/decisions/126). */
export function ButtonLink({
  className,
  variant,
  size,
  to,
  children,
  ...props
}: Omit<ComponentProps<"a">, "href"> & { to: string } & Variants) {
  return (
    <a href={to} className={cn(buttonVariants({ variant, size }), className)} {...props}>
      {children}
    </a>
  );
}
