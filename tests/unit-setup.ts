import { afterEach, beforeEach, vi } from "vitest";

// A console.error during a unit test is a bug the test did not expect: fail it.
// Tests that expect one spy on console.error themselves.
let spy: ReturnType<typeof vi.spyOn> | undefined;
beforeEach(() => {
  spy = vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error during a test: ${args.map(String).join(" ")}`);
  });
});
afterEach(() => {
  spy?.mockRestore();
});
