import type * as schema from "./schema.ts";

/*
 * The browser's way to the registration schema. Zod is about 22 KB gzipped, more than
 * the rest of the page's own code, and the form needs it only to check a submission,
 * so it is fetched on the first interaction with the form rather than with the page
 * (docs/decisions/051). The server imports schema.ts directly.
 */
export type RegistrationSchemaModule = typeof schema;

let loaded: RegistrationSchemaModule | null = null;
let loading: Promise<RegistrationSchemaModule> | null = null;

/** Starts the download once and resolves with the module; a failed download may be retried. */
export function loadRegistrationSchema(): Promise<RegistrationSchemaModule> {
  loading ??= import("./schema.ts").then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** The module if it has arrived, so a submission can be checked without waiting. */
export function loadedRegistrationSchema(): RegistrationSchemaModule | null {
  return loaded;
}
