import { type Socket, connect } from "node:net";

import { type Authenticator, waitFor } from "./engine.ts";

/**
 * Firefox's WebAuthn automation (the virtual authenticators of WebAuthn Level 3, section
 * 11) is a Marionette command, the protocol geckodriver speaks for classic WebDriver;
 * Firefox ESR 153 has no WebDriver BiDi module for it, so puppeteer cannot reach it. The
 * engine journeys talk to Marionette directly on the browser puppeteer launched: its
 * wire format is `<length>:<JSON>`, a command `[0, id, name, parameters]`, an answer
 * `[1, id, error, result]`. A Marionette session cannot be opened next to puppeteer's
 * BiDi session ("Maximum number of active sessions"), but the WebAuthn commands act on
 * the browser's one WebAuthn service and need none.
 */
export class Marionette {
  private buffer = "";
  private nextId = 0;
  private readonly pending = new Map<number, (answer: unknown[]) => void>();
  private hello = false;
  private readonly socket: Socket;

  private constructor(socket: Socket) {
    this.socket = socket;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      this.buffer += chunk;
      for (;;) {
        const colon = this.buffer.indexOf(":");
        if (colon < 0) return;
        const length = Number(this.buffer.slice(0, colon));
        if (this.buffer.length < colon + 1 + length) return;
        const message = JSON.parse(this.buffer.slice(colon + 1, colon + 1 + length)) as unknown;
        this.buffer = this.buffer.slice(colon + 1 + length);
        if (Array.isArray(message)) this.pending.get(message[1] as number)?.(message);
        else this.hello = true;
      }
    });
  }

  /** Connects to the browser's Marionette port and waits for its greeting. */
  static async connect(port: number): Promise<Marionette> {
    let socket: Socket | undefined;
    await waitFor(
      () =>
        new Promise<boolean>((resolve) => {
          const attempt = connect(port, "127.0.0.1");
          attempt.once("connect", () => resolve(Boolean((socket = attempt))));
          attempt.once("error", () => resolve(false));
        }),
      `Firefox's Marionette to listen on ${port}`,
    );
    const client = new Marionette(socket as Socket);
    await waitFor(async () => client.hello, "Marionette's greeting");
    return client;
  }

  async send(name: string, parameters: Record<string, unknown>): Promise<unknown> {
    const id = (this.nextId += 1);
    const text = JSON.stringify([0, id, name, parameters]);
    const answer = new Promise<unknown[]>((resolve) => this.pending.set(id, resolve));
    this.socket.write(`${Buffer.byteLength(text)}:${text}`);
    const [, , error, result] = await answer;
    this.pending.delete(id);
    if (error) throw new Error(`${name}: ${JSON.stringify(error).slice(0, 300)}`);
    return (result as { value?: unknown } | null)?.value;
  }

  /** A platform authenticator (internal transport) that verifies its user, as a phone does. */
  async addAuthenticator(): Promise<Authenticator> {
    const authenticatorId = (await this.send("WebAuthn:AddVirtualAuthenticator", {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    })) as string;
    return {
      credentials: async () =>
        ((await this.send("WebAuthn:GetCredentials", { authenticatorId })) as unknown[]).length,
      remove: async () => {
        await this.send("WebAuthn:RemoveVirtualAuthenticator", { authenticatorId });
      },
    };
  }

  close() {
    this.socket.destroy();
  }
}
