/** Section 9 of the specification. */
const navigationMenuDelays = { delayDuration: 200, skipDelayDuration: 300 } as const;

/** Decisions 093, 105. Serialised with Function.prototype.toString: it uses nothing outside. */
export function menuBehaviour(config: typeof navigationMenuDelays) {
  const menus = () =>
    Array.from(document.querySelectorAll<HTMLDetailsElement>("details[data-menu]"));
  const menuOf = (node: unknown, selector = "details[data-menu]") =>
    node instanceof Element ? node.closest<HTMLDetailsElement>(selector) : null;
  const toggleOf = (menu: HTMLDetailsElement) => menu.querySelector("summary");
  let hoverTimer = 0;
  let leaveTimer = 0;
  // The submenu the mouse opened, and the one whose toggle it has not left (a press confirms).
  let hoverOpened: HTMLDetailsElement | null = null;
  let pressConfirms: HTMLDetailsElement | null = null;
  let lastClosed = 0;

  function close(menu: HTMLDetailsElement) {
    if (!menu.open) return;
    menu.open = false;
    lastClosed = Date.now();
    if (hoverOpened === menu) hoverOpened = null;
    if (pressConfirms === menu) pressConfirms = null;
  }

  document.addEventListener(
    "toggle",
    (event) => {
      const opened = event.target;
      if (!(opened instanceof HTMLDetailsElement) || !opened.open) return;
      if (opened.hasAttribute("data-menu")) {
        for (const menu of menus()) if (menu !== opened) close(menu);
      }
      // A menu's sections close each other, whether or not the browser knows <details name>.
      const owner = opened.parentElement?.closest("details[data-menu]");
      if (owner) {
        for (const other of owner.querySelectorAll("details")) {
          if (other !== opened) other.open = false;
        }
      }
      const name = opened.getAttribute("name");
      if (name) {
        for (const other of document.querySelectorAll("details[name]")) {
          if (other !== opened && other.getAttribute("name") === name) {
            (other as HTMLDetailsElement).open = false;
          }
        }
      }
    },
    true,
  );

  document.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    const open = menus().filter((menu) => menu.open);
    const menu = menuOf(document.activeElement) ?? open[0];
    if (!menu || !menu.open) return;
    close(menu);
    toggleOf(menu)?.focus();
  });

  document.addEventListener("click", (event) => {
    const target = event.target;
    const menu = menuOf(target);
    for (const other of menus()) if (other !== menu) close(other);
    if (!menu || !(target instanceof Element)) return;
    if (target.closest("a[href]")) {
      close(menu);
      return;
    }
    const summary = target.closest("summary");
    if (summary && summary === toggleOf(menu) && pressConfirms === menu && event.detail > 0) {
      // The mouse opened it a moment ago: this press confirms, it does not close.
      event.preventDefault();
      pressConfirms = null;
    }
  });

  document.addEventListener("focusin", (event) => {
    for (const menu of menus()) {
      if (menu.open && !menu.contains(event.target as Node)) close(menu);
    }
  });

  const desktopMenuOf = (node: unknown) => menuOf(node, 'details[data-menu="desktop"]');

  document.addEventListener("pointerover", (event) => {
    if (event.pointerType !== "mouse") return;
    const menu = desktopMenuOf(event.target);
    if (!menu) return;
    window.clearTimeout(leaveTimer);
    if (menu.open || !toggleOf(menu)?.contains(event.target as Node)) return;
    window.clearTimeout(hoverTimer);
    const moving =
      menus().some((m) => m.open) || Date.now() - lastClosed < config.skipDelayDuration;
    hoverTimer = window.setTimeout(
      () => {
        if (!menu.matches(":hover")) return;
        menu.open = true;
        hoverOpened = menu;
        pressConfirms = menu;
      },
      moving ? 0 : config.delayDuration,
    );
  });

  document.addEventListener("pointerout", (event) => {
    if (event.pointerType !== "mouse") return;
    const menu = desktopMenuOf(event.target);
    if (!menu) return;
    const toggle = toggleOf(menu);
    if (toggle?.contains(event.target as Node) && !toggle.contains(event.relatedTarget as Node)) {
      if (pressConfirms === menu) pressConfirms = null;
    }
    if (menu.contains(event.relatedTarget as Node | null)) return;
    window.clearTimeout(hoverTimer);
    if (hoverOpened !== menu) return;
    leaveTimer = window.setTimeout(() => {
      if (!menu.matches(":hover") && !menu.contains(document.activeElement)) close(menu);
    }, config.skipDelayDuration);
  });
}

export const menuScript = `(${menuBehaviour.toString()})(${JSON.stringify(navigationMenuDelays)});`;
