// React chooses its production or development build when it is first imported, so the
// mode must be settled before anything imports it: hence this file, and main.ts behind it.
process.env.NODE_ENV ??= "production";

// node:sqlite still prints an ExperimentalWarning on every start. It is known and accepted
// (docs/decisions/030), and a plain-text line would break the JSON log stream, so that one
// warning is dropped; every other warning still reaches Node's own printer.
const printers = process.listeners("warning");
if (printers.length === 1) {
  const [print] = printers;
  process.removeAllListeners("warning");
  process.on("warning", (warning) => {
    if (warning.name === "ExperimentalWarning" && warning.message.includes("SQLite")) return;
    print?.(warning);
  });
}

await import("./main.ts");

export {};
