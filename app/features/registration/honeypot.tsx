import { fieldNames } from "./fields.ts";

/**
 * A field for bots only. It sits off-screen inside an aria-hidden container, out of
 * the tab order and without autofill, so neither people nor screen readers meet it;
 * a bot that fills every input gives itself away (server: answered, never stored).
 */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute top-auto -left-[10000px] h-px w-px overflow-hidden">
      <label htmlFor="registration-website">Leave this field empty</label>
      <input
        id="registration-website"
        type="text"
        name={fieldNames.honeypot}
        tabIndex={-1}
        autoComplete="off"
        defaultValue=""
      />
    </div>
  );
}
