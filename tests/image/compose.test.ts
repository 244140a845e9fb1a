import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

import { describe, expect, it } from "vitest";

import { envVariables } from "../../server/env.ts";

/**
 * deploy/compose.yaml as Debian's docker-compose reads it, and deploy/clinic-site.service
 * as systemd reads it (docs/deployment.md). Both tools come with the Docker set-up
 * (scripts/ensure-docker.ts installs docker-compose; systemd-analyze is systemd's).
 */
const root = path.resolve(import.meta.dirname, "../..");
const composeFile = path.join(root, "deploy/compose.yaml");
const required = {
  SITE_ADDRESS: "www.clinic.example.co.uk",
  CADDY_TLS: "ops@clinic.example.co.uk",
  CONSOLE_ADDRESS: "console.clinic.example.co.uk",
  POSTGRES_PASSWORD: "secret",
};

/**
 * Variables compose.yaml may leave to the image or the default, each with the reason.
 * Every other variable of server/env.ts must be set there: a new one fails this test
 * until someone decides.
 */
const leftToDefaults: Record<string, string> = {
  NODE_ENV: "deploy/Dockerfile sets production",
  PORT: "deploy/Dockerfile sets 3000; Caddy's UPSTREAMS use it",
  CONSOLE_PORT: "3001 by default; Caddy's CONSOLE_UPSTREAMS use it",
  HOST: "deploy/Dockerfile sets 0.0.0.0",
  DATA_DIR: "deploy/Dockerfile sets /data, the volume",
  BUILD_DIR: "the image's build/",
  HSTS: "on by default: Caddy serves https",
  ALLOWED_ORIGINS: "none: the form posts to its own origin",
  RETENTION_MONTHS: "the 24-month policy",
  REDIS_KEY_PREFIX: "one site per Redis",
  MAIL_PER_MINUTE: "60 a minute suits a small mailing list",
  MAIL_CONNECTIONS: "5 connections carry 60 a minute many times over",
  CONSOLE_SIGN_IN_PER_MINUTE: "30 a minute and 300 an hour, server/console/guards.ts",
  CONSOLE_SIGN_IN_PER_HOUR: "as CONSOLE_SIGN_IN_PER_MINUTE",
  SHUTDOWN_GRACE_SECONDS: "10 s; stop_grace_period is checked against it below",
};

function tool(name: string): boolean {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { stdio: "ignore" }).status === 0;
  if (!found && process.env.CI) throw new Error(`${name} is missing (scripts/ensure-docker.ts)`);
  return found;
}

type Service = {
  environment?: Record<string, string | null>;
  volumes?: (string | { target: string; source: string })[];
  stop_grace_period?: string;
  read_only?: boolean;
};

function composeConfig(env: Record<string, string>) {
  const result = spawnSync("docker-compose", ["-f", composeFile, "config"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH ?? "", ...env },
  });
  return result;
}

/** docker-compose's YAML as JSON, read by the PyYAML that docker-compose itself runs on. */
function asJson(yaml: string): { services: Record<string, Service> } {
  const json = execFileSync(
    "python3",
    ["-c", "import json, sys, yaml; print(json.dumps(yaml.safe_load(sys.stdin)))"],
    { input: yaml, encoding: "utf8" },
  );
  return JSON.parse(json) as { services: Record<string, Service> };
}

describe.skipIf(!tool("docker-compose"))("deploy/compose.yaml", () => {
  const result = composeConfig(required);

  it("is accepted by docker-compose with the required variables", () => {
    expect(result.stderr).not.toMatch(/ERROR/);
    expect(result.status).toBe(0);
  });

  it("is refused, naming the variable, when a required one is missing", () => {
    for (const name of Object.keys(required)) {
      const without = Object.fromEntries(Object.entries(required).filter(([k]) => k !== name));
      const refused = composeConfig(without);
      expect(refused.status, name).not.toBe(0);
      expect(refused.stderr, name).toContain(`set ${name}`);
    }
  });

  it("gives both app servers every variable the server reads, the shared /data, and time to drain", () => {
    const { services } = asJson(result.stdout);
    const apps = ["app1", "app2"].map((name) => services[name]);
    for (const app of apps) {
      expect(app).toBeDefined();
      const set = Object.keys(app!.environment ?? {});
      const missing = envVariables.filter((v) => !set.includes(v) && !(v in leftToDefaults));
      expect(missing, "set in compose.yaml, or add it to leftToDefaults with a reason").toEqual([]);
      expect(app!.read_only).toBe(true);

      const volume = (app!.volumes ?? []).find((v) =>
        typeof v === "string" ? v.split(":")[1] === "/data" : v.target === "/data",
      );
      expect(volume, "a volume at /data").toBeDefined();
      const grace = /^(\d+)s$/.exec(app!.stop_grace_period ?? "");
      // Longer than the server's drain (SHUTDOWN_GRACE_SECONDS, 10 s by default).
      expect(Number(grace?.[1] ?? 0)).toBeGreaterThanOrEqual(20);
    }
    expect(apps[0]!.volumes).toEqual(apps[1]!.volumes);
  });
});

describe.skipIf(!tool("systemd-analyze"))("deploy/clinic-site.service", () => {
  it("passes systemd-analyze verify", () => {
    const unit = readFileSync(path.join(root, "deploy/clinic-site.service"), "utf8");
    expect(unit).toContain("TimeoutStopSec=30");
    const result = spawnSync(
      "systemd-analyze",
      ["verify", path.join(root, "deploy/clinic-site.service")],
      {
        encoding: "utf8",
      },
    );
    // Paths of the installed site do not exist on a build machine; everything else must pass.
    const problems = result.stderr
      .split("\n")
      .filter(Boolean)
      .filter((line) => !/\/srv\/clinic-site|Command .* is not executable|No such file/.test(line));
    expect(problems).toEqual([]);
  });
});
