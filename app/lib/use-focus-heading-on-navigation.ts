import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * After a client-side navigation to another page, moves focus to the new page's main heading,
 * so a screen reader announces where the visitor is and the next Tab starts from the new
 * content. The first load and changes of only the hash or query (same-page links, the
 * calculator's URL state) leave focus alone. The heading takes focus without scrolling:
 * ScrollRestoration owns the scroll position.
 */
export function useFocusHeadingOnNavigation() {
  const { pathname } = useLocation();
  const shown = useRef(pathname);
  useEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    const heading = document.querySelector<HTMLElement>("main h1");
    if (heading === null) return;
    if (!heading.hasAttribute("tabindex")) heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [pathname]);
}
