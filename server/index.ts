import { quietSqliteWarning } from "./logger.ts";

// React picks its build when first imported: the mode is settled here, before main.ts.
process.env.NODE_ENV ??= "production";

quietSqliteWarning();

await import("./main.ts");
