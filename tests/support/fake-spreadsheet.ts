import { createServer, type IncomingMessage, type Server } from "node:http";

import {
  checkSignedRequest,
  TEST_SPREADSHEET_SECRET,
} from "../../integrations/google-sheets/load-apps-script.ts";
import { freePort } from "../../scripts/lib/server-process.ts";

/** "refuse-in-200" answers as Apps Script must: HTTP 200 with {"ok": false}. */
export type SpreadsheetAnswer = "ok" | "fail" | "slow" | "hang-up" | "refuse-in-200";

export type SpreadsheetRequest = {
  contentType: string | undefined;
  body: { id: string; event?: string; [field: string]: unknown };
};

/**
 * The one stand-in for the clinic's spreadsheet, on 127.0.0.1. Like the shipped Apps
 * Script (integrations/google-sheets) it checks each request's signature with the shipped
 * logic and keeps one row per registration id; `answer` decides each reply, and until
 * `listen()` (or after `close()`) its port refuses connections, as a spreadsheet that is down.
 */
export type FakeSpreadsheet = {
  url: string;
  /** The settings that make a server deliver here, signing with the shared test secret. */
  env: Record<string, string>;
  /** Why each request the shipped script would refuse was refused ("bad-signature", "not JSON", …). */
  refused: string[];
  /** Every signed request, duplicates and status updates included. */
  requests: SpreadsheetRequest[];
  /** One row per registration id: what the de-duplicating script keeps. */
  rows: Map<string, SpreadsheetRequest["body"]>;
  /** The latest status (confirmed, unsubscribed) per registration id. */
  statuses: Map<string, SpreadsheetRequest["body"]>;
  /** The reply to the request with this index in `requests`. */
  answer: (index: number) => SpreadsheetAnswer;
  /** How long a "slow" reply takes. */
  slowMs: number;
  /** Requests that carried this registration (not its status), however they were answered. */
  attempts(id: string): number;
  listen(): Promise<void>;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

export async function startFakeSpreadsheet(
  options: { listening?: boolean } = {},
): Promise<FakeSpreadsheet> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}/spreadsheet`;
  let server: Server | undefined;
  const spreadsheet: FakeSpreadsheet = {
    url,
    // The names before issue 30's rename too, until the server reads only the new ones.
    env: {
      SPREADSHEET_URL: url,
      SPREADSHEET_SECRET: TEST_SPREADSHEET_SECRET,
    },
    refused: [],
    requests: [],
    rows: new Map(),
    statuses: new Map(),
    answer: () => "ok",
    slowMs: 500,
    attempts: (id) =>
      spreadsheet.requests.filter((r) => r.body.id === id && r.body.event !== "status").length,
    listen() {
      server = createServer((req, res) => {
        readBody(req)
          .then((text) => {
            const check = checkSignedRequest({
              url: req.url ?? "",
              headers: req.headers,
              body: text,
            });
            if (!check.ok) {
              spreadsheet.refused.push(check.error);
              res.writeHead(401).end();
              return;
            }
            let body: SpreadsheetRequest["body"];
            try {
              body = JSON.parse(text) as SpreadsheetRequest["body"];
            } catch {
              spreadsheet.refused.push("not JSON");
              res.writeHead(400).end();
              return;
            }
            const request = { contentType: req.headers["content-type"], body };
            const answer = spreadsheet.answer(spreadsheet.requests.length);
            spreadsheet.requests.push(request);
            if (answer === "hang-up") {
              req.socket.destroy();
              return;
            }
            if (answer === "refuse-in-200") {
              res
                .writeHead(200, { "content-type": "application/json" })
                .end('{"ok":false,"error":"bad-signature"}');
              return;
            }
            if (answer === "fail") {
              res.writeHead(500).end("quota exceeded");
              return;
            }
            const accept = () => {
              if (body.event === "status") spreadsheet.statuses.set(body.id, body);
              else spreadsheet.rows.set(body.id, body);
              if (!res.destroyed) {
                res.writeHead(200, { "content-type": "application/json" }).end('{"ok":true}');
              }
            };
            if (answer === "slow") setTimeout(accept, spreadsheet.slowMs);
            else accept();
          })
          .catch(() => res.writeHead(400).end());
      });
      return new Promise((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    close() {
      const s = server;
      server = undefined;
      if (!s) return Promise.resolve();
      s.closeAllConnections();
      return new Promise((resolve) => s.close(() => resolve()));
    },
  };
  if (options.listening !== false) await spreadsheet.listen();
  return spreadsheet;
}
