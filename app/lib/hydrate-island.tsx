import { hydrateRoot } from "react-dom/client";

import { type IslandDefinition, IslandRoot, islandIdPrefix } from "./island.tsx";

export function hydrateIsland<Props extends object>(island: IslandDefinition<Props>) {
  const { name } = island;
  for (const container of document.querySelectorAll<HTMLElement>(`[data-island="${name}"]`)) {
    const props = JSON.parse(container.dataset.islandProps ?? "{}") as Props;
    hydrateRoot(container, <IslandRoot island={island} props={props} />, {
      identifierPrefix: islandIdPrefix(name),
    });
  }
}
