import { type ClassValue, clsx } from "clsx";

/*
 * Does not merge Tailwind utilities: nothing in app/ passes two that set the same thing,
 * so the browser need not load tailwind-merge (decisions 052, 125; tests/e2e/a11y.spec.ts).
 */
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
