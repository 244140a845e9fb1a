import type { Env } from "../env.ts";
import type { Logger } from "../logger.ts";
import { createDatabase, type DatabaseHandle, type DatabaseOptions } from "./database.ts";
import { migrateToLatest } from "./migrate.ts";
import { guardAvailability } from "./unavailable.ts";

/**
 * Storage's whole job: open the database the environment chooses and run pending
 * migrations. What is done with it lives in server/compose.ts.
 */
export async function openDatabase(
  env: Env,
  logger: Logger,
  options: DatabaseOptions = {},
): Promise<DatabaseHandle> {
  const { db, dialect } = createDatabase(env, logger, options);
  try {
    const applied = await guardAvailability(() => migrateToLatest(db, dialect));
    logger.info({ database: dialect, migrationsApplied: applied }, "storage ready");
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return { db, dialect };
}
