import { Menu } from "lucide-react";
import { useState } from "react";

import { mobileToggleClass } from "./nav-styles.ts";
import { type Intent, useOnDemand } from "../../lib/use-on-demand.ts";

const loadMenu = () => import("./mobile-nav-menu.tsx");

/**
 * The phone menu's toggle. Its Radix Collapsible and Accordion (mobile-nav-menu.tsx)
 * load when the toggle is first touched or focused, not with the page
 * (docs/decisions/053). A tap opens the menu as soon as the code has arrived.
 */
export function MobileNav() {
  const [menu, request] = useOnDemand(loadMenu);
  const [intent, setIntent] = useState<Intent>({});
  if (menu) return <menu.MobileNavMenu intent={intent} />;

  return (
    <div className="lg:hidden">
      <button
        type="button"
        aria-label="Open menu"
        aria-expanded="false"
        data-state="closed"
        data-focus-key="toggle"
        className={mobileToggleClass}
        onPointerDown={request}
        onFocus={() => {
          setIntent((current) => ({ ...current, focus: "toggle" }));
          request();
        }}
        onClick={() => {
          setIntent((current) => ({ ...current, open: "menu" }));
          request();
        }}
      >
        <Menu aria-hidden="true" className="size-6" />
      </button>
    </div>
  );
}
