/*
 * Entry point of the Apps Script web app: adapts Apps Script's services to the
 * interface of delivery.js. Deploy both files together (README.md).
 *
 * Apps Script gives doPost(e) the query string and the body, never the request
 * headers, so the website sends its signature in the query string as well.
 * A web app always answers HTTP 200: a refusal is {"ok": false, "error": "…"},
 * which the website's outbox treats as a failed delivery and retries.
 */

/* global ContentService, LockService, PropertiesService, SpreadsheetApp, Utilities, SPREADSHEET_COLUMNS, receiveDelivery */
/* exported doPost */

var SHEET_NAME = "Registrations";

function doPost(e) {
  var lock = LockService.getScriptLock();
  var result;
  try {
    // One delivery at a time: the duplicate check and the append must not interleave.
    lock.waitLock(30000);
    result = receiveDelivery(
      { parameter: (e && e.parameter) || {}, body: e && e.postData ? e.postData.contents : "" },
      appsScriptDeps(),
    );
  } catch {
    result = { ok: false, error: "script-error" };
  } finally {
    lock.releaseLock();
  }
  return ContentService.createTextOutput(JSON.stringify(result)).setMimeType(
    ContentService.MimeType.JSON,
  );
}

function appsScriptDeps() {
  return {
    secret: scriptSecret(PropertiesService.getScriptProperties()),
    nowSeconds: function () {
      return Math.floor(Date.now() / 1000);
    },
    hmacSha256Hex: function (key, message) {
      var bytes = Utilities.computeHmacSha256Signature(message, key, Utilities.Charset.UTF_8);
      // Apps Script's bytes are signed (-128…127).
      return bytes
        .map(function (byte) {
          return ((byte + 256) % 256).toString(16).padStart(2, "0");
        })
        .join("");
    },
    sheet: registrationSheet(),
  };
}

// SHEETS_WEBHOOK_SECRET is the property's name before the website's issue 30.
function scriptSecret(properties) {
  return (
    properties.getProperty("SPREADSHEET_SECRET") || properties.getProperty("SHEETS_WEBHOOK_SECRET")
  );
}

function registrationSheet() {
  var spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  var sheet = spreadsheet.getSheetByName(SHEET_NAME);
  if (!sheet) sheet = spreadsheet.insertSheet(SHEET_NAME);
  // A sheet made by an earlier version has fewer columns: the header grows with them.
  var header = sheet.getRange(1, 1, 1, SPREADSHEET_COLUMNS.length);
  if (header.getValues()[0].join("") !== SPREADSHEET_COLUMNS.join("")) {
    header.setValues([SPREADSHEET_COLUMNS]);
  }
  function findRow(id) {
    var found = sheet.getRange("A:A").createTextFinder(id).matchEntireCell(true).findNext();
    return found === null ? null : found.getRow();
  }
  return {
    hasId: function (id) {
      return findRow(id) !== null;
    },
    setTextCells: function (id, cells) {
      var row = findRow(id);
      if (row === null) return false;
      Object.keys(cells).forEach(function (column) {
        sheet
          .getRange(row, SPREADSHEET_COLUMNS.indexOf(column) + 1)
          .setNumberFormat("@")
          .setValue(cells[column]);
      });
      return true;
    },
    appendTextRow: function (values) {
      // Plain-text format before the values go in: nothing is read as a number,
      // a date or a formula.
      sheet
        .getRange(sheet.getLastRow() + 1, 1, 1, values.length)
        .setNumberFormat("@")
        .setValues([values]);
    },
  };
}
