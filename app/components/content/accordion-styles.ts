/** The look of SingleAccordion, shared by its native stand-in and its Radix version. */
export const accordionStyles = {
  frame:
    "divide-y divide-line overflow-hidden rounded-card border border-line bg-surface shadow-card",
  heading: "font-sans text-base tracking-normal",
  trigger:
    "flex min-h-14 w-full items-center justify-between gap-4 px-5 py-4 text-left text-base font-semibold text-ink transition-colors hover:bg-brand-50/60 focus-visible:-outline-offset-4 sm:px-6",
  chevron: "size-5 shrink-0 text-brand-700 transition-transform duration-200",
  content: "px-5 pt-1 pb-6 text-base leading-relaxed text-ink-soft sm:px-6",
} as const;
