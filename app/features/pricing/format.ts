/** The money format lives with the prices it formats (app/content/money.ts). */
export { formatGBP } from "../../content/money.ts";
