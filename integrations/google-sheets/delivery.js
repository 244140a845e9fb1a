/*
 * What the clinic's spreadsheet does with one delivery from the website. Plain
 * JavaScript with no Apps Script service in it, so the same file runs in Apps Script
 * (files share one global scope there, hence the prefixes) and under Node in the tests
 * (apps-script.test.ts). Code.js adapts the real services to the `deps` interface.
 *
 * A delivery is a POST whose body is JSON and whose query string carries
 * `timestamp` (Unix seconds) and `signature`: lowercase hex HMAC-SHA256 of
 * `timestamp + "." + body` with the shared secret (docs/decisions/078 in the
 * website's repository). The body is either a registration {id, name, email,
 * phone, message, timestamp}, which becomes a new row, or a later status
 * {event: "status", id, confirmedAt, unsubscribedAt}, which fills in that row's
 * last two columns.
 */

/* exported SPREADSHEET_COLUMNS, receiveDelivery */

/** The sheet's columns, in order; the first is the registration id. */
var SPREADSHEET_COLUMNS = [
  "id",
  "timestamp",
  "name",
  "email",
  "phone",
  "message",
  "confirmed_at",
  "unsubscribed_at",
];

/** The columns a status delivery writes, and the body field each one comes from. */
var DELIVERY_STATUS_FIELDS = { confirmed_at: "confirmedAt", unsubscribed_at: "unsubscribedAt" };

/** A signature older than this is refused (a replay); the website signs every attempt afresh. */
var DELIVERY_MAX_AGE_SECONDS = 5 * 60;
/** Clocks differ a little; a timestamp further ahead than this is refused. */
var DELIVERY_MAX_AHEAD_SECONDS = 60;

var DELIVERY_ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Compares two strings in time that does not depend on where they differ. */
function deliverySameText(a, b) {
  if (a.length !== b.length) return false;
  var difference = 0;
  for (var i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}

/**
 * Text a sheet shows as typed: a value starting with = + - @, tab or CR would run
 * as a formula, so it gets a leading apostrophe. A value that already has one
 * (the website neutralises formulas before sending) is left as it is.
 */
function deliveryAsText(value) {
  var text = value === null || value === undefined ? "" : String(value);
  return /^[=+\-@\t\r]/.test(text) ? "'" + text : text;
}

function deliveryRefused(error) {
  return { ok: false, error: error };
}

/**
 * Handles one delivery.
 * request: { parameter: {timestamp?, signature?}, body: string }
 * deps: {
 *   secret: string | null,                       the shared secret (script property)
 *   nowSeconds(): number,                        Unix time
 *   hmacSha256Hex(key: string, message: string): string,
 *   sheet: {
 *     hasId(id: string): boolean,
 *     appendTextRow(values: string[]): void,
 *     setTextCells(id: string, cells: {[column: string]: string}): boolean, false if no such row
 *   },
 * }
 * Returns {ok: true} (or {ok: true, duplicate: true}) or {ok: false, error}.
 * The caller must hold a lock across the call, so that two deliveries of one id
 * cannot both pass hasId.
 */
function receiveDelivery(request, deps) {
  if (!deps.secret) return deliveryRefused("not-configured");
  var parameter = request.parameter || {};
  var timestamp = String(parameter.timestamp || "");
  var signature = String(parameter.signature || "");
  if (!/^[0-9]{1,12}$/.test(timestamp) || !/^[0-9a-f]{64}$/.test(signature)) {
    return deliveryRefused("unsigned");
  }
  var body = typeof request.body === "string" ? request.body : "";
  var expected = deps.hmacSha256Hex(deps.secret, timestamp + "." + body);
  if (!deliverySameText(expected, signature)) return deliveryRefused("bad-signature");

  var age = deps.nowSeconds() - Number(timestamp);
  if (age > DELIVERY_MAX_AGE_SECONDS) return deliveryRefused("too-old");
  if (age < -DELIVERY_MAX_AHEAD_SECONDS) return deliveryRefused("from-the-future");

  var data;
  try {
    data = JSON.parse(body);
  } catch {
    return deliveryRefused("not-json");
  }
  if (typeof data !== "object" || data === null || !DELIVERY_ID_PATTERN.test(String(data.id))) {
    return deliveryRefused("no-id");
  }
  if (data.event === "status") {
    var cells = {};
    Object.keys(DELIVERY_STATUS_FIELDS).forEach(function (column) {
      cells[column] = deliveryAsText(data[DELIVERY_STATUS_FIELDS[column]]);
    });
    // The registration's own delivery may still be on its way: refusing makes the
    // website try this one again later, by when the row is there.
    return deps.sheet.setTextCells(data.id, cells) ? { ok: true } : deliveryRefused("unknown-id");
  }
  if (deps.sheet.hasId(data.id)) return { ok: true, duplicate: true };
  deps.sheet.appendTextRow(
    SPREADSHEET_COLUMNS.map(function (column) {
      return deliveryAsText(data[column]);
    }),
  );
  return { ok: true };
}
