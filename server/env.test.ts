import { describe, expect, it } from "vitest";

import { consoleOrigin, parseEnv, renamedVariables, siteOrigin } from "./env.ts";

describe("parseEnv", () => {
  it("applies the defaults on an empty environment, the console on 127.0.0.1:3001 at http://localhost:3001", () => {
    const env = parseEnv({});
    expect(env.PORT).toBe(3000);
    expect(env.DATA_DIR).toBe("./data");
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.HSTS).toBe(true);
    expect([env.CONSOLE_HOST, env.CONSOLE_PORT, consoleOrigin(env)]).toEqual([
      "127.0.0.1",
      3001,
      "http://localhost:3001",
    ]);
    expect(consoleOrigin(parseEnv({ CONSOLE_URL: "https://console.clinic.example/" }))).toBe(
      "https://console.clinic.example",
    );
  });

  it("refuses a console origin passkeys cannot use: plain http other than localhost", () => {
    for (const url of ["http://console.clinic.example", "http://127.0.0.1:3001", "ftp://x"]) {
      expect(() => parseEnv({ CONSOLE_URL: url }), url).toThrow(/CONSOLE_URL must be/);
    }
    expect(parseEnv({ CONSOLE_URL: "http://localhost:4001" }).CONSOLE_URL).toBe(
      "http://localhost:4001",
    );
  });

  it("treats empty strings as unset", () => {
    expect(parseEnv({ DATABASE_URL: "", PORT: "" }).PORT).toBe(3000);
  });

  it("names each bad variable", () => {
    expect(() => parseEnv({ PORT: "eighty", DATABASE_URL: "mysql://x" })).toThrow(
      /PORT[\s\S]*DATABASE_URL must be a postgres:\/\/ URL|DATABASE_URL must be a postgres:\/\/ URL[\s\S]*PORT/,
    );
  });

  it("accepts a postgres URL and a switched-off HSTS", () => {
    const env = parseEnv({ DATABASE_URL: "postgres://127.0.0.1:5432/test", HSTS: "false" });
    expect(env.DATABASE_URL).toBe("postgres://127.0.0.1:5432/test");
    expect(env.HSTS).toBe(false);
  });

  it("refuses a spreadsheet URL without a signing secret, and a short secret", () => {
    const url = "https://script.google.com/macros/s/abc/exec";
    expect(() => parseEnv({ SPREADSHEET_URL: url })).toThrow(
      /SPREADSHEET_SECRET must be set when SPREADSHEET_URL is/,
    );
    expect(() => parseEnv({ SPREADSHEET_URL: url, SPREADSHEET_SECRET: "short" })).toThrow(
      /SPREADSHEET_SECRET must be at least 32 characters/,
    );
    const secret = "0123456789abcdef0123456789abcdef";
    expect(parseEnv({ SPREADSHEET_URL: url, SPREADSHEET_SECRET: secret })).toMatchObject({
      SPREADSHEET_URL: url,
      SPREADSHEET_SECRET: secret,
    });
  });

  it("reads the spreadsheet's names before issue 30 while the new ones are unset, with a warning", () => {
    const url = "https://script.google.com/macros/s/abc/exec";
    const secret = "0123456789abcdef0123456789abcdef";
    const old = { SHEETS_WEBHOOK_URL: url, SHEETS_WEBHOOK_SECRET: secret };
    expect(parseEnv(old)).toMatchObject({ SPREADSHEET_URL: url, SPREADSHEET_SECRET: secret });
    expect(renamedVariables(old)).toBe(
      "Rename SHEETS_WEBHOOK_URL to SPREADSHEET_URL and SHEETS_WEBHOOK_SECRET to SPREADSHEET_SECRET: the old names are read only while the new ones are unset",
    );
    const newer = "https://script.google.com/macros/s/new/exec";
    expect(parseEnv({ ...old, SPREADSHEET_URL: newer }).SPREADSHEET_URL).toBe(newer);
    expect(renamedVariables({ SPREADSHEET_URL: url, SPREADSHEET_SECRET: secret })).toBeNull();
  });

  it("sends mail only with a From and an https site to link to (http only to this machine)", () => {
    const smtp = "smtp://user:pass@smtp.example.com:587";
    expect(() => parseEnv({ SMTP_URL: smtp, SITE_URL: "https://clinic.example" })).toThrow(
      /MAIL_FROM must be set when SMTP_URL is/,
    );
    const from = "Clinic <hello@clinic.example>";
    expect(() => parseEnv({ SMTP_URL: smtp, MAIL_FROM: from })).toThrow(/SITE_URL must be/);
    expect(() =>
      parseEnv({ SMTP_URL: smtp, MAIL_FROM: from, SITE_URL: "http://clinic.example" }),
    ).toThrow(/SITE_URL must be the site's https:\/\/ origin/);
    expect(() => parseEnv({ SMTP_URL: "http://smtp.example.com" })).toThrow(
      /SMTP_URL must be an smtp:\/\/ or smtps:\/\/ URL/,
    );
    for (const site of [
      "https://clinic.example",
      "http://localhost:8080",
      "http://127.0.0.1:3000",
    ]) {
      expect(parseEnv({ SMTP_URL: smtp, MAIL_FROM: from, SITE_URL: site }).SMTP_URL).toBe(smtp);
    }
    expect(parseEnv({}).MAIL_PER_MINUTE).toBe(60);
    expect(() => parseEnv({ MAIL_PER_MINUTE: "0" })).toThrow(/MAIL_PER_MINUTE/);
    expect(parseEnv({}).MAIL_CONNECTIONS).toBe(5);
    expect(parseEnv({ MAIL_CONNECTIONS: "12" }).MAIL_CONNECTIONS).toBe(12);
    for (const wrong of ["0", "51", "2.5", "many"]) {
      expect(() => parseEnv({ MAIL_CONNECTIONS: wrong })).toThrow(/MAIL_CONNECTIONS/);
    }
  });

  it("links emails to SITE_URL's origin, or to this server on localhost", () => {
    expect(siteOrigin(parseEnv({ SITE_URL: "https://clinic.example/some/path" }))).toBe(
      "https://clinic.example",
    );
    expect(siteOrigin(parseEnv({ PORT: "8080" }))).toBe("http://localhost:8080");
  });
});
