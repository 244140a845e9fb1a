import { type ClassValue, clsx } from "clsx";

// No tailwind-merge: nothing passes two utilities for one property (decisions 052, 125).
export function cn(...inputs: ClassValue[]): string {
  return clsx(inputs);
}
