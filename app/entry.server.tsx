import { PassThrough } from "node:stream";

import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import {
  type EntryContext,
  type HandleErrorFunction,
  type RouterContextProvider,
  ServerRouter,
  isRouteErrorResponse,
} from "react-router";

import { appServicesContext } from "./lib/app-context.ts";
import { NonceProvider } from "./lib/nonce.tsx";

// The server (server/app.ts) reads this key from the build, so both share one object.
export { appServicesContext };

export const streamTimeout = 5_000;

/**
 * One pino-shaped JSON line on stderr, like the server's own logs: React Router's
 * default would print a plain-text stack and break the JSON log stream.
 */
function logError(error: unknown, request?: Request) {
  const refused = isRouteErrorResponse(error) && error.status < 500;
  // React Router keeps the underlying Error of its own responses (a 405, say) in `error`.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  const cause = isRouteErrorResponse(error) ? (inner ?? error.statusText) : error;
  const err =
    cause instanceof Error
      ? { type: cause.name, message: cause.message, stack: refused ? undefined : cause.stack }
      : { message: String(cause) };
  const path = request ? new URL(request.url).pathname : undefined;
  process.stderr.write(
    `${JSON.stringify({ level: refused ? 30 : 50, time: Date.now(), service: "clinic-site", method: request?.method, path, err, msg: refused ? "route refused" : "route failed" })}\n`,
  );
}

export const handleError: HandleErrorFunction = (error, { request }) => {
  // A visitor who left mid-request is not an error worth a line.
  if (!request.signal.aborted) logError(error, request);
};

function nonceOf(loadContext: RouterContextProvider | undefined): string | undefined {
  try {
    return loadContext?.get(appServicesContext).nonce;
  } catch {
    // Prerendering at build time has no services: prerendered pages use script hashes.
    return undefined;
  }
}

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: RouterContextProvider,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = nonceOf(loadContext);

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers and prerendering wait for the whole document.
    const waitForAll = (userAgent !== null && isbot(userAgent)) || routerContext.isSpaMode;

    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(
      () => abort(),
      streamTimeout + 1000,
    );

    const onReady = () => {
      shellRendered = true;
      const body = new PassThrough({
        final(callback) {
          clearTimeout(timeoutId);
          timeoutId = undefined;
          callback();
        },
      });
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      pipe(body);
      resolve(
        new Response(createReadableStreamFromReadable(body), {
          headers: responseHeaders,
          status: responseStatusCode,
        }),
      );
    };

    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: onReady } : { onShellReady: onReady }),
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError(error, request);
        },
      },
    );
  });
}
