import { type ComponentType, type ReactNode, createContext, use, useEffect } from "react";
import { preloadModule } from "react-dom";
import builtIslands from "virtual:islands";

import { useNonce } from "./nonce.tsx";

/**
 * An island: the one part of a page that React runs in the browser (the quiz, the cost
 * calculator, the registration form). The rest of the page is HTML that never hydrates
 * (docs/decisions/126). Its props travel in the HTML as JSON, so they must be plain data.
 */
export type IslandDefinition<Props extends object> = {
  /** Also the file name of its browser entry, `app/islands/<name>.tsx`. */
  name: string;
  Component: ComponentType<Props>;
};

/**
 * What both sides render for an island, so the server's HTML and the browser's first
 * render match: the component, and a marker for end-to-end tests and scripts that its
 * handlers are live.
 */
export function IslandRoot<Props extends object>({
  island: { Component },
  props,
}: {
  island: IslandDefinition<Props>;
  props: Props;
}) {
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Component {...props} />;
}

/** Both sides prefix the island's useId values with its name, so the ids match. */
export const islandIdPrefix = (name: string) => `${name}-`;

type RenderToString = (node: ReactNode, options: { identifierPrefix: string }) => string;

/**
 * react-dom/server's renderToString, given by entry.server.tsx. Without it (the audit's
 * client-only build, unit tests) an island renders in place like any component.
 */
export const IslandRenderer = createContext<RenderToString | null>(null);

/**
 * Renders an island on the server: its HTML inside a `display: contents` container that
 * carries its name and props, then the module script that hydrates exactly that container
 * (app/islands/<name>.tsx). React hoists the module preloads into <head>.
 */
export function Island<Props extends object>({
  island,
  props,
}: {
  island: IslandDefinition<Props>;
  props: Props;
}) {
  const render = use(IslandRenderer);
  const nonce = useNonce();
  const { name } = island;
  if (render === null) return <IslandRoot island={island} props={props} />;
  const assets = builtIslands[name];
  if (assets === undefined) throw new Error(`The island "${name}" has no browser entry.`);
  for (const href of [assets.src, ...assets.imports]) preloadModule(href, { as: "script" });
  const html = render(<IslandRoot island={island} props={props} />, {
    identifierPrefix: islandIdPrefix(name),
  });
  return (
    <>
      <div
        className="contents"
        data-island={name}
        data-island-props={JSON.stringify(props)}
        dangerouslySetInnerHTML={{ __html: html }}
      />
      <script type="module" src={assets.src} nonce={nonce} />
    </>
  );
}
