import { ChevronDown } from "lucide-react";
import { type ReactNode, useId } from "react";

import { cn } from "../ui/cn.ts";

/** Native `<details>` sharing a `name`, which the browser keeps single-open (decision 054). */
export function SingleAccordion({
  items,
  className,
}: {
  items: Array<{ id: string; title: ReactNode; content: ReactNode }>;
  className?: string;
}) {
  const name = useId();

  return (
    <div
      className={cn(
        "divide-y divide-line overflow-hidden rounded-card border border-line bg-surface shadow-card",
        className,
      )}
    >
      {items.map((item) => (
        <details key={item.id} name={name} className="group/item">
          <summary className="flex min-h-14 w-full cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left text-base font-semibold text-ink transition-colors group-open/item:bg-brand-50/60 hover:bg-brand-50/60 focus-visible:-outline-offset-4 sm:px-6 [&::-webkit-details-marker]:hidden">
            <h3 className="font-sans text-base tracking-normal">{item.title}</h3>
            <ChevronDown
              aria-hidden="true"
              className="size-5 shrink-0 text-brand-700 transition-transform duration-200 group-open/item:rotate-180"
            />
          </summary>
          <div className="px-5 pt-1 pb-6 text-base leading-relaxed text-ink-soft sm:px-6">
            {item.content}
          </div>
        </details>
      ))}
    </div>
  );
}
