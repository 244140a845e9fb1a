import * as Accordion from "@radix-ui/react-accordion";
import { ChevronDown } from "lucide-react";
import type { ReactNode } from "react";

import { cn } from "../ui/cn.ts";

export type AccordionEntry = { id: string; title: ReactNode; content: ReactNode };

/**
 * A list where one item at most is open and the open item can be closed again
 * (Radix `type="single" collapsible`). Used by the FAQ groups and treatment details.
 */
export function SingleAccordion({
  items,
  headingLevel = 3,
  className,
}: {
  items: AccordionEntry[];
  headingLevel?: 3 | 4;
  className?: string;
}) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  return (
    <Accordion.Root
      type="single"
      collapsible
      className={cn(
        "divide-y divide-line overflow-hidden rounded-card border border-line bg-surface shadow-card",
        className,
      )}
    >
      {items.map((item) => (
        <Accordion.Item key={item.id} value={item.id}>
          <Accordion.Header asChild>
            <Heading className="font-sans text-base tracking-normal">
              <Accordion.Trigger className="group flex min-h-14 w-full items-center justify-between gap-4 px-5 py-4 text-left text-base font-semibold text-ink transition-colors hover:bg-brand-50/60 focus-visible:-outline-offset-4 data-[state=open]:bg-brand-50/60 sm:px-6">
                <span>{item.title}</span>
                <ChevronDown
                  aria-hidden="true"
                  className="size-5 shrink-0 text-brand-700 transition-transform duration-200 group-data-[state=open]:rotate-180"
                />
              </Accordion.Trigger>
            </Heading>
          </Accordion.Header>
          <Accordion.Content className="px-5 pt-1 pb-6 text-base leading-relaxed text-ink-soft sm:px-6">
            {item.content}
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
