import {
  type ComponentType,
  type ReactNode,
  createContext,
  use,
  useEffect,
  useSyncExternalStore,
} from "react";
import { preloadModule } from "react-dom";
import builtIslands from "virtual:islands";

import { useNonce } from "./nonce.tsx";

/** Decision 126. Its props travel in the HTML as JSON, so they must be plain data. */
export type IslandDefinition<Props extends object> = {
  /** Its browser entry is `app/islands/<name>.tsx`. */
  name: string;
  Component: ComponentType<Props>;
};

type IslandProps<Props extends object> = { island: IslandDefinition<Props>; props: Props };

/** Both sides render this, with a marker for tests that its handlers are live. */
export function IslandRoot<Props extends object>({ island, props }: IslandProps<Props>) {
  const { Component } = island;
  useEffect(() => {
    document.documentElement.dataset.hydrated = "true";
  }, []);
  return <Component {...props} />;
}

export const islandIdPrefix = (name: string) => `${name}-`;

const subscribe = () => () => {};

/** False on the server and while hydrating, so a no-JavaScript fallback steps aside cleanly. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}

type RenderToString = (node: ReactNode, options: { identifierPrefix: string }) => string;

/** From entry.server.tsx; without it (client-only build, unit tests) it renders in place. */
export const IslandRenderer = createContext<RenderToString | null>(null);

/** React hoists the module preloads into <head>. */
export function Island<Props extends object>({ island, props }: IslandProps<Props>) {
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
