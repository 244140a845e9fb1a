// React chooses its production or development build when it is first imported, so the
// mode must be settled before anything imports it: hence this file, and main.ts behind it.
process.env.NODE_ENV ??= "production";

await import("./main.ts");

export {};
