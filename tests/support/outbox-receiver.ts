import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";

import {
  checkSignedRequest,
  TEST_SPREADSHEET_SECRET,
} from "../../integrations/google-sheets/load-apps-script.ts";

export { TEST_SPREADSHEET_SECRET };

/** "refuse-in-200" answers as Apps Script must: HTTP 200 with {"ok": false}. */
export type ReceiverMode = "ok" | "fail" | "slow" | "hang-up" | "refuse-in-200";

export type ReceivedDelivery = {
  contentType: string | undefined;
  body: {
    id: string;
    name: string;
    email: string;
    phone: string | null;
    message: string | null;
    timestamp: string;
  };
};

/**
 * A stand-in for the clinic's spreadsheet endpoint on 127.0.0.1. `mode` decides
 * each answer; like the real sheet script, it checks the signature with the
 * shipped logic (integrations/google-sheets) and keeps one row per registration id.
 */
export type FakeReceiver = {
  url: string;
  /** The environment that makes the outbox deliver here, signing with the shared test secret. */
  env: { SPREADSHEET_URL: string; SPREADSHEET_SECRET: string };
  /** Requests whose signature the shipped script would refuse, with its reason. */
  refused: string[];
  /** Every request that arrived with a readable body, duplicates included. */
  requests: ReceivedDelivery[];
  /** One entry per registration id: what a de-duplicating receiver keeps. */
  rows: Map<string, ReceivedDelivery["body"]>;
  mode: (index: number) => ReceiverMode;
  listen(): Promise<void>;
  close(): Promise<void>;
};

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Picks a free port and releases it, so a receiver can appear there later (connection refused until then). */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export function createFakeReceiver(port: number, slowMs = 500): FakeReceiver {
  let server: Server | undefined;
  const url = `http://127.0.0.1:${port}/sheet`;
  const receiver: FakeReceiver = {
    url,
    env: { SPREADSHEET_URL: url, SPREADSHEET_SECRET: TEST_SPREADSHEET_SECRET },
    refused: [],
    requests: [],
    rows: new Map(),
    mode: () => "ok",
    listen() {
      server = createServer((req, res) => {
        const index = receiver.requests.length;
        const mode = receiver.mode(index);
        readBody(req)
          .then((text) => {
            const check = checkSignedRequest({
              url: req.url ?? "",
              headers: req.headers,
              body: text,
            });
            if (!check.ok) {
              receiver.refused.push(check.error);
              res.writeHead(401).end();
              return;
            }
            const delivery: ReceivedDelivery = {
              contentType: req.headers["content-type"],
              body: JSON.parse(text) as ReceivedDelivery["body"],
            };
            receiver.requests.push(delivery);
            if (mode === "hang-up") {
              req.socket.destroy();
              return;
            }
            if (mode === "refuse-in-200") {
              res
                .writeHead(200, { "content-type": "application/json" })
                .end('{"ok":false,"error":"bad-signature"}');
              return;
            }
            if (mode === "fail") {
              res.writeHead(500).end("quota exceeded");
              return;
            }
            const accept = () => {
              receiver.rows.set(delivery.body.id, delivery.body);
              res
                .writeHead(200, { "content-type": "application/json" })
                .end('{"result":"success"}');
            };
            if (mode === "slow") setTimeout(accept, slowMs);
            else accept();
          })
          .catch(() => res.writeHead(400).end());
      });
      return new Promise((resolve) => server!.listen(port, "127.0.0.1", resolve));
    },
    close() {
      if (!server) return Promise.resolve();
      const s = server;
      s.closeAllConnections();
      return new Promise((resolve) => s.close(() => resolve()));
    },
  };
  return receiver;
}
