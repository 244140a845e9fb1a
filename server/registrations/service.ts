import { insertRegistration, insertRegistrationBatch } from "./repository.ts";
import {
  checkConfirmLink,
  checkUnsubscribeLink,
  confirmRegistration,
  rejoinByLink,
  unsubscribeByLink,
} from "./subscription.ts";
import type {
  NewRegistration,
  RegisterResult,
  RegistrationService,
} from "../../contract/registrations.ts";
import type { DatabaseHandle } from "../db/database.ts";
import { createGroupCommit } from "../db/group-commit.ts";
import { guardAll, isUnavailableError } from "../db/unavailable.ts";

export type ServiceDependencies = DatabaseHandle & {
  /** The key that signs confirm and unsubscribe links (links.ts). */
  linkKey: string;
  now: () => Date;
  /** Whether changes are queued for the spreadsheet (SHEETS_WEBHOOK_* set). */
  forward: boolean;
  /** Tells the workers there is something to deliver. */
  wake: { sheet(): void; mail(): void };
  /** Told of each registration write, so /healthz knows (docs/decisions/073). */
  observeWrite(error?: unknown): void;
  /** Most registrations written in one transaction. */
  maxBatch?: number;
  /** Transactions writing registrations at once (SQLite has one writer). */
  writeConcurrency?: number;
};

/** Registrations with group commit, and the confirm, unsubscribe and rejoin links. */
export function createRegistrationService({
  db,
  dialect,
  linkKey: key,
  now,
  forward,
  wake,
  observeWrite,
  maxBatch = 200,
  writeConcurrency = dialect === "sqlite" ? 1 : 4,
}: ServiceDependencies): RegistrationService {
  // One transaction (one fsync) for every registration that arrives while the
  // previous one commits: see docs/decisions/031.
  const submit = createGroupCommit<NewRegistration, RegisterResult>(
    async (inputs) => {
      try {
        const results = await insertRegistrationBatch(db, inputs, { forward, now: now(), dialect });
        return results.map((value) => ({ status: "fulfilled", value }));
      } catch (error) {
        if (inputs.length === 1 || isUnavailableError(error)) throw error;
        // One bad row must not fail its neighbours: write each on its own.
        return Promise.allSettled(
          inputs.map((input) => insertRegistration(db, input, { forward, now: now(), dialect })),
        );
      }
    },
    { maxBatch, concurrency: writeConcurrency },
  );

  return guardAll<RegistrationService>({
    async register(input) {
      const result = await submit(input).catch((error: unknown) => {
        observeWrite(error);
        throw error;
      });
      observeWrite();
      if (result.kind === "created") {
        wake.sheet();
        wake.mail();
      }
      return result;
    },
    checkConfirm: (token) => checkConfirmLink({ db, key, now: now() }, token),
    async confirm(token) {
      const result = await confirmRegistration(
        { db, key, now: now(), spreadsheet: forward },
        token,
      );
      if (result.kind === "confirmed" && result.firstTime) wake.sheet();
      return result;
    },
    checkUnsubscribe: (token) => checkUnsubscribeLink({ db, key, now: now() }, token),
    async unsubscribe(token) {
      const result = await unsubscribeByLink(
        { db, dialect, key, now: now(), spreadsheet: forward },
        token,
      );
      if (result.kind === "unsubscribed" && result.firstTime) wake.sheet();
      return result;
    },
    async rejoin(token) {
      const result = await rejoinByLink({ db, key, now: now(), spreadsheet: forward }, token);
      wake.sheet();
      return result;
    },
  });
}
