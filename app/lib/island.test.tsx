import { useId } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";

import { Island, IslandRenderer } from "./island.tsx";
import { NonceProvider } from "./nonce.tsx";

function Greeting({ who }: { who: string }) {
  const id = useId();
  return (
    <label htmlFor={id}>
      Hello {who} <input id={id} />
    </label>
  );
}

/** Named after an entry that exists in app/islands/, so the map of entries knows it. */
const island = { name: "quiz", Component: Greeting };

function renderPage(page: React.ReactNode, nonce = "n0nce") {
  return renderToString(
    <NonceProvider value={nonce}>
      <IslandRenderer value={renderToString}>{page}</IslandRenderer>
    </NonceProvider>,
  );
}

describe("an island on the server", () => {
  it("writes its HTML, name and props in a container, then the module script that hydrates it", () => {
    const html = renderPage(
      <main>
        <h1>Page</h1>
        <Island island={island} props={{ who: `"Sam" <b>` }} />
      </main>,
    );
    const container =
      /<div class="contents" data-island="quiz" data-island-props="([^"]*)">(.*?)<\/div>/.exec(
        html,
      );
    expect(container).not.toBeNull();
    const props = (container?.[1] ?? "")
      .replaceAll("&quot;", '"')
      .replaceAll("&lt;", "<")
      .replaceAll("&gt;", ">")
      .replaceAll("&amp;", "&");
    expect(JSON.parse(props)).toEqual({ who: `"Sam" <b>` });
    // The island's own render: ids carry its prefix, as hydrateRoot's identifierPrefix gives.
    expect(container?.[2]).toMatch(/<label for="[^"]*quiz-[^"]*">Hello /);
    expect(container?.[2]).toContain("&lt;b&gt;");
    expect(html).toContain(
      '<script type="module" src="/app/islands/quiz.tsx" nonce="n0nce"></script>',
    );
    // The script comes after the container, so the container is parsed when it runs.
    expect(html.indexOf("data-island=")).toBeLessThan(html.indexOf('type="module"'));
  });

  it("refuses an island without a browser entry", () => {
    const orphan = { name: "no-such-island", Component: Greeting };
    expect(() => renderPage(<Island island={orphan} props={{ who: "Sam" }} />)).toThrow(
      /no-such-island/,
    );
  });

  it("renders in place, with no container or script, where no server renderer is given", () => {
    const html = renderToString(<Island island={island} props={{ who: "Sam" }} />);
    expect(html).toMatch(/^<label for="[^"]+">Hello /);
    expect(html).not.toContain("data-island");
    expect(html).not.toContain("<script");
  });
});
