import { type IncomingMessage, type ServerResponse, createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import {
  checkSignedRequest,
  TEST_SPREADSHEET_SECRET,
} from "../../integrations/google-sheets/load-apps-script.ts";

export type SheetMode = "ok" | "down" | "slow" | "error";

/**
 * A stand-in for the clinic's spreadsheet endpoint that keeps the raw text of
 * every request, so a test can check it is valid JSON, and keeps one row per
 * registration id, as the real sheet script does. "down" refuses connections.
 * Every request must carry the signature the shipped script checks
 * (integrations/google-sheets); one that does not is answered 401 and counted.
 */
export type FakeSheet = {
  url: string;
  /** SPREADSHEET_URL and SPREADSHEET_SECRET for a server that forwards here. */
  env: { SPREADSHEET_URL: string; SPREADSHEET_SECRET: string };
  /** Why each refused request was refused ("bad-signature", "too-old", …). */
  refused: string[];
  raw: string[];
  rows: Map<string, Record<string, unknown>>;
  /** The latest status delivery per registration id. */
  statuses: Map<string, Record<string, unknown>>;
  /** Requests per registration id, duplicates included. */
  seen: Map<string, number>;
  mode: SheetMode;
  slowMs: number;
  setMode(mode: SheetMode): Promise<void>;
  close(): Promise<void>;
};

export async function startFakeSheet(): Promise<FakeSheet> {
  let server: Server | undefined;
  let port = 0;
  const sheet: FakeSheet = {
    url: "",
    env: { SPREADSHEET_URL: "", SPREADSHEET_SECRET: TEST_SPREADSHEET_SECRET },
    refused: [],
    raw: [],
    rows: new Map(),
    statuses: new Map(),
    seen: new Map(),
    mode: "ok",
    slowMs: 15_000,
    async setMode(mode) {
      if (mode === "down" && server) await stop();
      if (mode !== "down" && !server) await listen();
      sheet.mode = mode;
    },
    close: stop,
  };

  function handler(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const check = checkSignedRequest({ url: req.url ?? "", headers: req.headers, body: text });
      if (!check.ok) {
        sheet.refused.push(check.error);
        res.writeHead(401).end();
        return;
      }
      sheet.raw.push(text);
      let body: Record<string, unknown>;
      try {
        body = JSON.parse(text) as Record<string, unknown>;
      } catch {
        res.writeHead(400).end("not JSON");
        return;
      }
      const id = String(body.id);
      if (body.event === "status") {
        // A later status (confirmed, unsubscribed): kept apart from the registration rows.
        sheet.statuses.set(id, body);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
        return;
      }
      sheet.seen.set(id, (sheet.seen.get(id) ?? 0) + 1);
      if (sheet.mode === "error") {
        res.writeHead(500).end("script error");
        return;
      }
      const accept = () => {
        sheet.rows.set(id, body);
        if (!res.destroyed) res.writeHead(200, { "content-type": "application/json" }).end("{}");
      };
      if (sheet.mode === "slow") setTimeout(accept, sheet.slowMs);
      else accept();
    });
  }

  async function listen() {
    server = createServer(handler);
    await new Promise<void>((resolve) => server?.listen(port, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    sheet.url = `http://127.0.0.1:${port}/sheet`;
    sheet.env = { SPREADSHEET_URL: sheet.url, SPREADSHEET_SECRET: TEST_SPREADSHEET_SECRET };
  }

  async function stop() {
    const s = server;
    server = undefined;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  await listen();
  return sheet;
}
