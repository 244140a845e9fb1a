import { z } from "zod";

import type { StaffStore } from "./store.ts";
import {
  EXPORTS_PER_DAY,
  type PeopleOperations,
  refuse,
  type StaffMember,
} from "../../contract/console.ts";
import type { RegistrationAdmin } from "../operator/admin.ts";
import { addressKey } from "../shared/address.ts";
import { registrationsCsv } from "../shared/csv.ts";

/** Look-ups a manager may make in an hour: a person at a desk, never a script trying names. */
export const LOOKUPS_PER_HOUR = 60;

const DAY = 24 * 60 * 60_000;

const addressSchema = z.email().max(320);

const resendRefusals = {
  gone: "There is no registration with that address any more.",
  confirmed: "This address is already confirmed: there is nothing to re-send.",
  unsubscribed: "This person unsubscribed, so we must not email them.",
  limit:
    "A confirmation email was sent to this address in the last hour, or three in the last day. Please try again later.",
} as const;

/**
 * People, for managers (docs/decisions/135): the CLI's own subject-access, erasure,
 * export and the form's confirmation limits, reached by registration id once the exact
 * address was found. Every call is audited with that id; no address is ever written.
 */
export function createPeopleOperations(
  admin: RegistrationAdmin,
  store: Pick<StaffStore, "audit" | "countActions">,
  actor: StaffMember,
): PeopleOperations {
  const audit = (action: string, registrationId: string | null, detail = {}) =>
    store.audit({ staffId: actor.id, action, registrationId, detail });

  return {
    async find(email) {
      const parsed = addressSchema.safeParse(addressKey(email));
      if (!parsed.success) return refuse("Enter the full email address, like name@example.com.");
      if (
        (await store.countActions(actor.id, "person-looked-up", 60 * 60_000)) >= LOOKUPS_PER_HOUR
      ) {
        await audit("look-up-refused", null, { reason: "limit", limit: LOOKUPS_PER_HOUR });
        return refuse("You have looked up many addresses this hour. Please wait a while.");
      }
      const found = await admin.findByEmail(parsed.data);
      const id = found.at(-1)?.id ?? null;
      await audit("person-looked-up", id, { found: id !== null });
      if (id !== null) return { id };
      return { id: null, erasures: await admin.erasures(parsed.data) };
    },

    /** Every registration of the address that registration `id` has. */
    async view(id, purpose) {
      const email = await admin.emailOf(id);
      if (email === null) return null;
      const registrations = await admin.findByEmail(email);
      const erasures = await admin.erasures(email);
      await audit(
        { view: "person-viewed", print: "copy-printed", download: "copy-downloaded" }[purpose],
        id,
      );
      return { registrations, erasures };
    },

    async erase(id, retyped) {
      const email = await admin.emailOf(id);
      if (email === null) return refuse("There is no registration with that address any more.");
      if (addressKey(retyped) !== addressKey(email)) {
        await audit("erase-refused", id, { reason: "address did not match" });
        return refuse(
          "The address you typed is not this person's address. Nothing was erased: type it again exactly.",
        );
      }
      const result = await admin.eraseByEmail(email);
      await audit("person-erased", id, {
        registrations: result.registrations,
        spreadsheetRows: result.spreadsheetIds.length,
      });
      return { ok: true, erasures: await admin.erasures(email) };
    },

    async resendConfirmation(id) {
      const email = await admin.emailOf(id);
      const { kind } =
        email === null ? { kind: "gone" as const } : await admin.resendConfirmation(email);
      await audit(kind === "queued" ? "confirmation-resent" : "confirmation-refused", id, {
        ...(kind === "queued" ? {} : { reason: kind }),
      });
      return kind === "queued" ? { ok: true } : refuse(resendRefusals[kind]);
    },

    async exportCsv() {
      // Counted, like look-ups, from the audit trail: two at once may both pass the last one.
      if ((await store.countActions(actor.id, "registrations-exported", DAY)) >= EXPORTS_PER_DAY) {
        await audit("export-refused", null, { reason: "limit", limit: EXPORTS_PER_DAY });
        return refuse(
          `You have exported every registration ${String(EXPORTS_PER_DAY)} times in the last 24 hours, the most allowed. Use a file you already have, or try again tomorrow.`,
        );
      }
      const rows = await admin.exportAll();
      await audit("registrations-exported", null, { count: rows.length });
      return registrationsCsv(rows);
    },
  };
}
