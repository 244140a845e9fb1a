import { createHmac } from "node:crypto";

/**
 * How every delivery to the spreadsheet is signed (docs/decisions/078):
 * HMAC-SHA256 with SHEETS_WEBHOOK_SECRET over `${timestamp}.${body}`, where the
 * timestamp is Unix seconds and the body is the exact bytes sent (ASCII JSON), as
 * lowercase hex. Sent twice: as headers for receivers that can read them, and as
 * query parameters for Google Apps Script, whose doPost(e) cannot see headers.
 */
export const SIGNATURE_HEADER = "x-clinic-signature";
export const TIMESTAMP_HEADER = "x-clinic-timestamp";
export const SIGNATURE_PARAM = "signature";
export const TIMESTAMP_PARAM = "timestamp";

export type Signed = { timestamp: string; signature: string };

export function sign(secret: string, body: string, now: Date): Signed {
  const timestamp = String(Math.floor(now.getTime() / 1000));
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { timestamp, signature };
}

/** The receiver's URL with the timestamp and signature added to its query string. */
export function signedUrl(url: string, signed: Signed): string {
  const target = new URL(url);
  target.searchParams.set(TIMESTAMP_PARAM, signed.timestamp);
  target.searchParams.set(SIGNATURE_PARAM, signed.signature);
  return target.toString();
}

export function signatureHeaders(signed: Signed): Record<string, string> {
  return { [TIMESTAMP_HEADER]: signed.timestamp, [SIGNATURE_HEADER]: `sha256=${signed.signature}` };
}
