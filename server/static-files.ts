import { readdirSync } from "node:fs";
import path from "node:path";

import type { NextFunction, Request, Response } from "express";
import expressStaticGzip from "express-static-gzip";

/** Every path that has a prerendered page: "/" and "/team" for build/client/team/index.html. */
export function findPrerenderedPaths(clientDir: string): Set<string> {
  const paths = new Set<string>();
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name !== "index.html") continue;
    const rel = path.relative(clientDir, entry.parentPath).split(path.sep).join("/");
    paths.add(rel === "" ? "/" : `/${rel}`);
  }
  return paths;
}

const IMMUTABLE = "public, max-age=31536000, immutable";
const REVALIDATE = "public, max-age=0, must-revalidate";
const SHORT = "public, max-age=3600";

/**
 * Serves build/client: prerendered HTML at its clean path (no trailing-slash
 * redirect), content-hashed assets with immutable caching, and the precompressed
 * .br/.gz twin of each file when the client accepts it.
 *
 * A page request with a query string goes to React Router instead, so the page is
 * rendered for that query (the pricing calculator restores a shared estimate this way).
 */
export function staticFiles(clientDir: string) {
  const prerendered = findPrerenderedPaths(clientDir);
  const serve = expressStaticGzip(clientDir, {
    enableBrotli: true,
    orderPreference: ["br", "gz"],
    index: false,
    serveStatic: {
      index: false,
      redirect: false,
      setHeaders(res, filePath) {
        const rel = path.relative(clientDir, filePath);
        // The file sent may be the precompressed twin (index.html.br): judge by the original.
        const original = filePath.replace(/\.(br|gz)$/, "");
        if (rel.startsWith(`assets${path.sep}`)) {
          res.setHeader("Cache-Control", IMMUTABLE);
        } else if (original.endsWith(".html")) {
          res.setHeader("Cache-Control", REVALIDATE);
        } else {
          res.setHeader("Cache-Control", SHORT);
        }
      },
    },
  });

  return {
    prerendered,
    middleware(req: Request, res: Response, next: NextFunction) {
      if (req.method !== "GET" && req.method !== "HEAD") return next();
      const [pathname = "/", query] = req.url.split("?", 2);
      if (prerendered.has(pathname)) {
        if (query !== undefined) return next();
        req.url = pathname === "/" ? "/index.html" : `${pathname}/index.html`;
        return serve(req, res, (error?: unknown) => {
          req.url = pathname;
          // A refusal of the file itself (416 range, 412 precondition) is the answer;
          // passing it on to React Router would render over headers already set.
          if (error) return next(error);
          next();
        });
      }
      // Directory index files are only reachable through their clean path, in no other
      // spelling ("/faq%2Findex.html"). refuseMalformed.target let only decodable paths here.
      if (decodeURIComponent(pathname).endsWith("/index.html")) return next();
      return serve(req, res, next);
    },
  };
}
