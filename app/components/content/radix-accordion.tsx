import * as Accordion from "@radix-ui/react-accordion";
import { ChevronDown } from "lucide-react";
import { useLayoutEffect, useRef } from "react";

import { accordionStyles as styles } from "./accordion-styles.ts";
import type { SingleAccordionProps } from "./single-accordion.tsx";
import { type Intent, restoreFocus } from "../../lib/use-on-demand.ts";
import { cn } from "../ui/cn.ts";

/**
 * SingleAccordion once its code has loaded: Radix Accordion, `type="single"` and
 * collapsible. It starts with the item the visitor opened in the native stand-in, and
 * focus moves to the trigger that replaces the summary he was on.
 */
export function RadixAccordion({
  items,
  headingLevel = 3,
  className,
  intent,
}: SingleAccordionProps & { intent: Intent }) {
  const Heading = headingLevel === 3 ? "h3" : "h4";
  const rootRef = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => restoreFocus(rootRef.current, intent.focus), [intent.focus]);

  return (
    <Accordion.Root
      ref={rootRef}
      type="single"
      collapsible
      defaultValue={intent.open}
      className={cn(styles.frame, className)}
    >
      {items.map((item) => (
        <Accordion.Item key={item.id} value={item.id}>
          <Accordion.Header asChild>
            <Heading className={styles.heading}>
              <Accordion.Trigger
                data-focus-key={item.id}
                className={cn(styles.trigger, "group data-[state=open]:bg-brand-50/60")}
              >
                <span>{item.title}</span>
                <ChevronDown
                  aria-hidden="true"
                  className={cn(styles.chevron, "group-data-[state=open]:rotate-180")}
                />
              </Accordion.Trigger>
            </Heading>
          </Accordion.Header>
          <Accordion.Content className={styles.content}>{item.content}</Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}
