import { describe, expect, it } from "vitest";

import { startupLine } from "./startup-line.ts";

describe("the line npm start prints on a terminal", () => {
  it("gives the address to open, the SQLite file and the mail folder by default", () => {
    expect(startupLine({ HOST: "0.0.0.0", DATA_DIR: "./data" }, 3000)).toBe(
      "Open http://localhost:3000 · database: SQLite data/registrations.sqlite · " +
        "emails: written as files under data/mail/ (SMTP_URL unset)",
    );
  });

  it("names PostgreSQL and the SMTP server without their passwords", () => {
    const line = startupLine(
      {
        HOST: "127.0.0.1",
        DATA_DIR: "/data",
        DATABASE_URL: "postgres://clinic:secret@db.internal:5432/clinic",
        SMTP_URL: "smtp://user:hunter2@smtp.example.com:587",
      },
      8080,
    );
    expect(line).toBe(
      "Open http://localhost:8080 · database: PostgreSQL db.internal:5432/clinic · " +
        "emails: sent through SMTP smtp.example.com:587",
    );
    expect(line).not.toMatch(/secret|hunter2/);
  });

  it("shows a specific listening address as it is", () => {
    expect(startupLine({ HOST: "192.0.2.10", DATA_DIR: "./data" }, 3000)).toContain(
      "http://192.0.2.10:3000",
    );
  });
});
