import { createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";

import { z } from "zod";

/** SMTP connections kept open, each carrying one email at a time (decision 184). */
export const DEFAULT_MAIL_CONNECTIONS = 5;

const flag = z.enum(["true", "false", "1", "0"]).transform((v) => v === "true" || v === "1");

const envSchema = z
  .object({
    NODE_ENV: z.enum(["production", "development", "test"]).default("production"),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default("0.0.0.0"),
    LOG_LEVEL: z
      .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
      .default("info"),
    BUILD_DIR: z.string().min(1).default("build"),
    DATA_DIR: z.string().min(1).default("./data"),
    DATABASE_URL: z
      .url({ protocol: /^postgres(ql)?$/, error: "DATABASE_URL must be a postgres:// URL" })
      .optional(),
    /** The clinic's spreadsheet (integrations/google-sheets); set, every registration goes to it. */
    SPREADSHEET_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** Signs every delivery to SPREADSHEET_URL (HMAC-SHA256, decision 078); required with it. */
    SPREADSHEET_SECRET: z
      .string()
      .min(32, "SPREADSHEET_SECRET must be at least 32 characters (try `openssl rand -hex 32`)")
      .optional(),
    RATE_LIMIT_PER_MINUTE: z.coerce.number().int().positive().default(5),
    RATE_LIMIT_PER_DAY: z.coerce.number().int().positive().default(50),
    /** Unset: server/console/guards.ts's limits. */
    CONSOLE_SIGN_IN_PER_MINUTE: z.coerce.number().int().positive().optional(),
    CONSOLE_SIGN_IN_PER_HOUR: z.coerce.number().int().positive().optional(),
    REDIS_URL: z
      .url({ protocol: /^rediss?$/, error: "REDIS_URL must be a redis:// or rediss:// URL" })
      .optional(),
    REDIS_KEY_PREFIX: z.string().min(1).default("clinic:"),
    TRUST_PROXY: z.coerce.number().int().min(0).default(0),
    HSTS: flag.default(true),
    ALLOWED_ORIGINS: z
      .string()
      .default("")
      .transform((s) => s.split(",").flatMap((o) => o.trim() || [])),
    RETENTION_MONTHS: z.coerce.number().int().positive().default(24),
    /** Read at run time for the links in emails, and by the build for canonical URLs (decision 009). */
    SITE_URL: z.url({ protocol: /^https?$/, error: "SITE_URL must be an http(s) URL" }).optional(),
    SMTP_URL: z
      .url({ protocol: /^smtps?$/, error: "SMTP_URL must be an smtp:// or smtps:// URL" })
      .optional(),
    MAIL_FROM: z.string().min(3).optional(),
    MAIL_PER_MINUTE: z.coerce.number().int().positive().max(6000).default(60),
    /** Emails under way at once: SMTP connections, or files written without SMTP_URL. */
    MAIL_CONNECTIONS: z.coerce.number().int().min(1).max(50).default(DEFAULT_MAIL_CONNECTIONS),
    /** DKIM (docs/deployment.md): d=, s=, and the key as PEM (newlines may be written \\n) or a file. */
    DKIM_DOMAIN: z
      .string()
      .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, {
        error: "DKIM_DOMAIN must be a domain name, e.g. clinic.example.co.uk",
      })
      .optional(),
    DKIM_SELECTOR: z
      .string()
      .regex(/^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i, {
        error: "DKIM_SELECTOR must be one DNS label, e.g. mail2026",
      })
      .optional(),
    DKIM_PRIVATE_KEY: z.string().optional(),
    DKIM_PRIVATE_KEY_FILE: z.string().optional(),
    /** The staff console's own listener (docs/decisions/133); 0 picks a free port (tests). */
    CONSOLE_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
    /** Never the internet: reach it through the proxy's console host name only. */
    CONSOLE_HOST: z.string().min(1).default("127.0.0.1"),
    /** As staff's browsers see it: passkeys bind to its host name, POSTs must come from it. */
    CONSOLE_URL: z
      .url({ protocol: /^https?$/, error: "CONSOLE_URL must be an http(s) URL" })
      .refine(
        (url) => new URL(url).protocol === "https:" || new URL(url).hostname === "localhost",
        "CONSOLE_URL must be https://, or http://localhost: passkeys need a secure origin with a host name",
      )
      .optional(),
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().positive().default(10),
  })
  .refine((env) => !env.SMTP_URL || env.MAIL_FROM, {
    path: ["MAIL_FROM"],
    error: "MAIL_FROM must be set when SMTP_URL is: it is the From of every email",
  })
  .refine((env) => !env.SMTP_URL || isHttpsOrLocal(env.SITE_URL), {
    path: ["SITE_URL"],
    error:
      "SITE_URL must be the site's https:// origin when SMTP_URL is set: emails link to it, and List-Unsubscribe must be https",
  })
  .superRefine((env, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: "custom", path: [path], message });
    const key = env.DKIM_PRIVATE_KEY ?? env.DKIM_PRIVATE_KEY_FILE;
    const given = [env.DKIM_DOMAIN, env.DKIM_SELECTOR, key];
    if (given.every((v) => v === undefined)) return;
    if (given.some((v) => v === undefined)) {
      return issue(
        "DKIM_DOMAIN",
        "DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE) must be set together",
      );
    }
    if (env.DKIM_PRIVATE_KEY && env.DKIM_PRIVATE_KEY_FILE) {
      return issue(
        "DKIM_PRIVATE_KEY_FILE",
        "set DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE, not both",
      );
    }
    const problem = dkimKeyProblem(env);
    if (problem)
      issue(env.DKIM_PRIVATE_KEY ? "DKIM_PRIVATE_KEY" : "DKIM_PRIVATE_KEY_FILE", problem);
    const fromDomain = env.MAIL_FROM ? /@([^>\s]+)>?\s*$/.exec(env.MAIL_FROM)?.[1] : undefined;
    const from = fromDomain?.toLowerCase();
    const domain = env.DKIM_DOMAIN?.toLowerCase();
    if (from && domain && from !== domain && !from.endsWith(`.${domain}`)) {
      issue(
        "DKIM_DOMAIN",
        `DKIM_DOMAIN must be MAIL_FROM's domain (${fromDomain}) or a parent of it, or DMARC will not pass`,
      );
    }
  })
  .refine((env) => !env.SPREADSHEET_URL || env.SPREADSHEET_SECRET, {
    path: ["SPREADSHEET_SECRET"],
    error:
      "SPREADSHEET_SECRET must be set when SPREADSHEET_URL is: every delivery is signed, and an unsigned one would be refused",
  });

/** Old names, still read while the new ones are unset. */
const RENAMED = {
  SHEETS_WEBHOOK_URL: "SPREADSHEET_URL",
  SHEETS_WEBHOOK_SECRET: "SPREADSHEET_SECRET",
} as const;

export function renamedVariables(source: NodeJS.ProcessEnv = process.env): string | null {
  const old = Object.entries(RENAMED).filter(([name]) => source[name]);
  if (old.length === 0) return null;
  return `Rename ${old.map(([name, now]) => `${name} to ${now}`).join(" and ")}: the old names are read only while the new ones are unset`;
}

export function dkimPrivateKey(
  env: Pick<Env, "DKIM_PRIVATE_KEY" | "DKIM_PRIVATE_KEY_FILE">,
): string | undefined {
  if (env.DKIM_PRIVATE_KEY) return env.DKIM_PRIVATE_KEY.replace(/\\n/g, "\n");
  if (env.DKIM_PRIVATE_KEY_FILE) return readFileSync(env.DKIM_PRIVATE_KEY_FILE, "utf8");
  return undefined;
}

function dkimKeyProblem(env: Pick<Env, "DKIM_PRIVATE_KEY" | "DKIM_PRIVATE_KEY_FILE">) {
  let pem: string | undefined;
  try {
    pem = dkimPrivateKey(env);
  } catch {
    return "DKIM_PRIVATE_KEY_FILE cannot be read";
  }
  try {
    const key = createPrivateKey(pem ?? "");
    if (key.asymmetricKeyType !== "rsa" && key.asymmetricKeyType !== "ed25519")
      return "the DKIM key must be an RSA (2048 bits or more) or Ed25519 private key";
    if (key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) < 1024)
      return "the DKIM RSA key must be at least 1024 bits (2048 recommended)";
  } catch {
    return "the DKIM key is not a PEM private key";
  }
}

/** http is enough for this machine (a local mail catcher); an unset SITE_URL means localhost. */
function isHttpsOrLocal(siteUrl: string | undefined): boolean {
  if (siteUrl === undefined) return false;
  const url = new URL(siteUrl);
  return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

export type Env = z.infer<typeof envSchema>;

/** Every variable the server and the CLI read (deploy/compose.yaml is checked against it). */
export const envVariables = Object.keys(envSchema.shape) as (keyof Env)[];

export function siteOrigin(env: Pick<Env, "SITE_URL" | "PORT">): string {
  return env.SITE_URL ? new URL(env.SITE_URL).origin : `http://localhost:${env.PORT}`;
}

export function consoleOrigin(env: Pick<Env, "CONSOLE_URL" | "CONSOLE_PORT">): string {
  return env.CONSOLE_URL ? new URL(env.CONSOLE_URL).origin : `http://localhost:${env.CONSOLE_PORT}`;
}

export function parseEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings mean "unset", as in most shells' `FOO= npm start`.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== ""));
  for (const [old, now] of Object.entries(RENAMED)) cleaned[now] ??= cleaned[old];
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  - ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join("\n")}`);
  }
  return result.data;
}

/** For the server and the CLI, which cannot run without it: what is wrong, then exit 1. */
export function envOrExit(source: NodeJS.ProcessEnv = process.env): Env {
  try {
    return parseEnv(source);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
