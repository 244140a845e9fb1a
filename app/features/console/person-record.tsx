import type { ErasureRecord, RegistrationWithDelivery } from "../../../contract/console.ts";
import {
  consentWordingOf,
  dateTime,
  deliveryWords,
  emailTopics,
  erasureWords,
  never,
  notGiven,
  recordLabels,
} from "../../content/people.ts";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid gap-1 border-b border-line py-3 sm:grid-cols-[14rem_1fr] sm:gap-4 print:grid-cols-[12rem_1fr] print:py-1.5">
      <dt className="font-semibold">{label}</dt>
      <dd className="break-words whitespace-pre-wrap">{children}</dd>
    </div>
  );
}

/** One registration as the person would read it: their words and what we did with them. */
function Registration({ r }: { r: RegistrationWithDelivery }) {
  return (
    <dl className="mt-2">
      <Row label={recordLabels.name}>{r.name}</Row>
      <Row label={recordLabels.email}>{r.email}</Row>
      <Row label={recordLabels.phone}>{r.phone ?? notGiven}</Row>
      <Row label={recordLabels.message}>{r.message ?? notGiven}</Row>
      <Row label={recordLabels.receivedAt}>{dateTime(r.receivedAt)}</Row>
      <Row label={recordLabels.confirmedAt}>{r.confirmedAt ? dateTime(r.confirmedAt) : never}</Row>
      <Row label={recordLabels.unsubscribedAt}>
        {r.unsubscribedAt ? dateTime(r.unsubscribedAt) : never}
      </Row>
      <Row label={recordLabels.wantsUpdates}>{r.consent?.wantsUpdates ? "Yes" : never}</Row>
      <Row label={recordLabels.consent}>
        {r.consent
          ? `${consentWordingOf(r.consent.version)} Shown beside the form on ${dateTime(r.consent.at)}.`
          : "Not recorded: this registration predates the consent record."}
      </Row>
      <Row label={recordLabels.emails}>
        {r.emails.length === 0 ? (
          "None"
        ) : (
          <ul className="flex flex-col gap-1">
            {r.emails.map((e, i) => (
              <li key={i}>
                {emailTopics[e.topic] ?? e.topic}: {deliveryWords[e.status] ?? e.status}
                {e.deliveredAt ? ` on ${dateTime(e.deliveredAt)}` : ""}
              </li>
            ))}
          </ul>
        )}
      </Row>
      <Row label={recordLabels.spreadsheet}>
        {r.delivery
          ? `${deliveryWords[r.delivery.status] ?? r.delivery.status}${r.delivery.deliveredAt ? ` on ${dateTime(r.delivery.deliveredAt)}` : ""}`
          : never}
      </Row>
      <Row label={recordLabels.id}>
        <span className="font-mono text-sm">{r.id}</span>
      </Row>
    </dl>
  );
}

/** Every registration of an address, newest first, and any erasure of it. */
export function PersonRecord({
  registrations,
  erasures,
}: {
  registrations: RegistrationWithDelivery[];
  erasures: ErasureRecord[];
}) {
  const newestFirst = [...registrations].reverse();
  return (
    <>
      {newestFirst.map((r, i) => (
        <section key={r.id} className="mt-6 break-inside-avoid">
          <h2 className="text-xl">
            {newestFirst.length === 1
              ? "Their registration"
              : `Registration ${newestFirst.length - i} of ${newestFirst.length}`}
          </h2>
          <Registration r={r} />
        </section>
      ))}
      <ErasureList erasures={erasures} />
    </>
  );
}

export function ErasureList({ erasures }: { erasures: ErasureRecord[] }) {
  if (erasures.length === 0) return null;
  return (
    <section className="mt-6">
      <h2 className="text-xl">Earlier erasures of this address</h2>
      <ul className="mt-2 flex list-disc flex-col gap-1 pl-6">
        {erasures.map((e) => (
          <li key={e.erasedAt}>{erasureWords(e)}</li>
        ))}
      </ul>
    </section>
  );
}
