import { type ClassValue, clsx } from "clsx";

/*
 * Joins class names; it does not merge Tailwind utilities. Nothing in app/ passes two
 * utilities that set the same thing (a primitive's option or `padding="none"` is used
 * instead of an override), so there is nothing to merge, and the browser does not load
 * tailwind-merge (docs/decisions/052). tests/e2e/a11y.spec.ts checks every page and
 * state as the browser renders it (docs/decisions/125).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
