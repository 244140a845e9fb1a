import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";
import type { RegistrationService } from "../registrations/types.ts";

export type Storage = {
  registrations: RegistrationService;
  /** Starts background work (outbox delivery, daily purge). */
  start(): void;
  /** Stops background work and closes the database. */
  close(): Promise<void>;
};

/** Opens the database chosen by the environment and runs pending migrations. */
export async function openStorage(_env: Env, _logger: Logger): Promise<Storage> {
  // Replaced by the real SQLite/PostgreSQL implementation (issue 5).
  return {
    registrations: {
      register() {
        return Promise.reject(new Error("Registration storage is not implemented yet"));
      },
    },
    start() {},
    close: () => Promise.resolve(),
  };
}
