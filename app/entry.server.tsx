import { STATUS_CODES } from "node:http";
import { PassThrough } from "node:stream";

import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream, renderToString } from "react-dom/server";
import {
  type EntryContext,
  type HandleDataRequestFunction,
  type HandleErrorFunction,
  type RouterContextProvider,
  ServerRouter,
  isRouteErrorResponse,
} from "react-router";

import { consoleServicesContext } from "../contract/console.ts";
import { appServicesContext, type Logger } from "../contract/registrations.ts";
import { IslandRenderer } from "./lib/island.tsx";
import { NonceProvider } from "./lib/nonce.tsx";

// The server (server/app.ts) reads this key from the build, so both share one object.
export { appServicesContext, consoleServicesContext };

export const streamTimeout = 5_000;

type Context = Readonly<RouterContextProvider> | undefined;

/** None while prerendering. */
function servicesOf(context: Context) {
  try {
    return context?.get(appServicesContext);
  } catch {
    return undefined;
  }
}

/** Prerendering has no pino logger: its errors fail the build, shown to whoever runs it. */
const buildLogger: Logger = {
  info: (fields, message) => console.warn(message, fields),
  warn: (fields, message) => console.warn(message, fields),
  error: (fields, message) => console.error(message, fields),
};

/** React Router's default would print a plain-text stack and break the JSON log stream. */
function logError(error: unknown, request: Request, context: Context) {
  const refused = isRouteErrorResponse(error) && error.status < 500;
  // React Router keeps the underlying Error of its own responses (a 405, say) in `error`.
  const inner = isRouteErrorResponse(error) ? (error as { error?: unknown }).error : undefined;
  const cause = isRouteErrorResponse(error) ? (inner ?? error.statusText) : error;
  const err =
    cause instanceof Error
      ? { type: cause.name, message: cause.message, stack: refused ? undefined : cause.stack }
      : { message: String(cause) };
  const fields = { method: request.method, path: new URL(request.url).pathname, err };
  const logger = servicesOf(context)?.logger ?? buildLogger;
  if (refused) logger.info(fields, "route refused");
  else logger.error(fields, "route failed");
}

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A visitor who left mid-request is not an error worth a line.
  if (!request.signal.aborted) logError(error, request, context);
};

/** React Router's would name route ids; no page of ours reads `.data` (decision 105). */
export const handleDataRequest: HandleDataRequestFunction = async (response) => {
  if (response.status < 400) return response;
  await response.body?.cancel();
  const headers = new Headers(response.headers);
  headers.set("Content-Type", "text/plain; charset=utf-8");
  headers.delete("Content-Length");
  return new Response(`${STATUS_CODES[response.status] ?? "Error"}\n`, {
    status: response.status,
    headers,
  });
};

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
  // Prerendered pages have none: they use script hashes.
  const nonce = servicesOf(loadContext)?.nonce;

  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    // Crawlers and prerendering wait for the whole document.
    const waitForAll = isbot(request.headers.get("user-agent")) || routerContext.isSpaMode;

    const timeout = setTimeout(() => abort(), streamTimeout + 1000);

    const onReady = () => {
      shellRendered = true;
      const body = new PassThrough({
        final(callback) {
          clearTimeout(timeout);
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
        <IslandRenderer value={renderToString}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </IslandRenderer>
      </NonceProvider>,
      {
        nonce,
        ...(waitForAll ? { onAllReady: onReady } : { onShellReady: onReady }),
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) logError(error, request, loadContext);
        },
      },
    );
  });
}
