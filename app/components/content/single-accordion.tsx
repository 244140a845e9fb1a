import { ChevronDown } from "lucide-react";
import { type FocusEvent, type ReactNode, useId, useState } from "react";

import { accordionStyles as styles } from "./accordion-styles.ts";
import { type Intent, useOnDemand } from "../../lib/use-on-demand.ts";
import { cn } from "../ui/cn.ts";

export type AccordionEntry = { id: string; title: ReactNode; content: ReactNode };

export interface SingleAccordionProps {
  items: AccordionEntry[];
  headingLevel?: 3 | 4;
  className?: string;
}

const loadRadix = () => import("./radix-accordion.tsx");

/**
 * A list where one item at most is open and the open item can be closed again. Used by
 * the FAQ groups and the treatment details.
 *
 * The page ships with native `<details>` elements sharing a `name`, which the browser
 * keeps single-open: the answers open without JavaScript, and a tap works at once. When
 * the visitor first points at or focuses the list, Radix Accordion (radix-accordion.tsx,
 * about 9 KB gzipped) loads and takes over with the same item open (decision 053).
 */
export function SingleAccordion(props: SingleAccordionProps) {
  const { items, headingLevel = 3, className } = props;
  const [radix, request] = useOnDemand(loadRadix);
  const [intent, setIntent] = useState<Intent>({});
  const name = useId();
  if (radix) return <radix.RadixAccordion {...props} intent={intent} />;

  const Heading = headingLevel === 3 ? "h3" : "h4";
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const focus = event.target.dataset.focusKey;
    setIntent((current) => ({ ...current, focus }));
    request();
  };

  return (
    <div className={cn(styles.frame, className)} onPointerOver={request} onFocus={onFocus}>
      {items.map((item) => (
        <details
          key={item.id}
          name={name}
          className="group/item"
          onToggle={(event) => {
            const open = event.currentTarget.open;
            setIntent((current) =>
              open
                ? { ...current, open: item.id }
                : { ...current, open: current.open === item.id ? undefined : current.open },
            );
          }}
        >
          <summary
            data-focus-key={item.id}
            className={cn(
              styles.trigger,
              "cursor-pointer list-none group-open/item:bg-brand-50/60 [&::-webkit-details-marker]:hidden",
            )}
          >
            <Heading className={styles.heading}>{item.title}</Heading>
            <ChevronDown
              aria-hidden="true"
              className={cn(styles.chevron, "group-open/item:rotate-180")}
            />
          </summary>
          <div className={styles.content}>{item.content}</div>
        </details>
      ))}
    </div>
  );
}
