import { data } from "react-router";

/** Unknown console paths: the gate sends anyone without a session to sign in first. */
export function loader() {
  throw data("Not found", { status: 404 });
}

export default function ConsoleNotFound() {
  return null;
}
