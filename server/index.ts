// React picks its build when first imported: the mode is settled here, before main.ts.
process.env.NODE_ENV ??= "production";

// node:sqlite's ExperimentalWarning (accepted, decision 030) would break the JSON log stream.
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
