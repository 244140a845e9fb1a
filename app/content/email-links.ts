import { clinic } from "./clinic.ts";
import type { PageInfo } from "./pages.ts";

/** Calm and plain: nobody reaching these pages has done anything wrong. */
export type LinkPageCopy = PageInfo & { body: readonly string[] };

const site = clinic.name;

function page(heading: string, description: string, ...body: string[]): LinkPageCopy {
  return { title: `${heading} | ${site}`, description, heading, body };
}

/** The page shown while storage cannot be reached (a 503): nothing was changed. */
const unavailable = page(
  "Please try again in a minute",
  "This page is briefly unavailable.",
  "We cannot reach our records right now because of a problem on our side. Nothing has been changed.",
  "Please open the link again in a minute or two.",
);

export const confirmCopy = {
  // The link only opens this page: a person presses the button (docs/decisions/100).
  ask: page(
    "One more step: confirm your email address",
    `Confirm your email address for the ${site} waiting list.`,
    "Your address is not confirmed yet. Press the button below to confirm it and join our waiting list.",
    "If you did not register with us, do not press the button: close this page and we will not email you again about it.",
  ),
  confirmed: page(
    "Your email address is confirmed",
    `Your email address is confirmed for the ${site} waiting list.`,
    "Thank you. Your place on our waiting list is confirmed.",
    "What happens next: when we are registered with the CQC and open, we will send you one email to say so. Until then you do not need to do anything.",
  ),
  alreadyConfirmed: page(
    "Your email address is already confirmed",
    `This email address was already confirmed for the ${site} waiting list.`,
    "You confirmed this address before, so nothing has changed and there is nothing more to do.",
    "When we open, we will send you one email to say so.",
  ),
  expired: page(
    "This confirmation link has expired",
    "The confirmation link has expired.",
    "Confirmation links work for 7 days after we send them, and this one is older than that. Your address has not been confirmed.",
    "If you would still like to hear when we open, please register again and use the link in the new email within 7 days.",
  ),
  invalid: page(
    "We could not read this confirmation link",
    "The confirmation link is not complete or not valid.",
    "The link may have been cut short or changed when it was copied. Nothing has been changed.",
    "Please open the link straight from the email we sent you. If it still does not work, you can register again.",
  ),
  gone: page(
    "We no longer hold this registration",
    "The registration this link belongs to is no longer stored.",
    "The registration this link was sent for has been deleted: either at your request, or because it was not confirmed within 30 days. Nothing has been changed.",
    "If you would still like to hear when we open, you are welcome to register again.",
  ),
  unavailable,
} as const satisfies Record<string, LinkPageCopy>;

export const confirmButton = "Confirm my email address";

export const unsubscribeCopy = {
  ask: page(
    "Unsubscribe from our emails",
    `Stop emails from ${site}.`,
    "Press the button below and we will not email this address again, not even when we open.",
    "If you would like us to delete your details as well, email us and we will do so.",
  ),
  alreadyUnsubscribed: {
    ...page(
      "You are already unsubscribed",
      `This email address is already unsubscribed from ${site} emails.`,
      "This address is already unsubscribed, so we will not email it again. There is nothing more to do.",
      "Changed your mind? Press “Join the list again” and we will email you when we open.",
    ),
    // The same title as "done": after the button is pressed, the page's data says
    // "already unsubscribed" while its heading says "You are unsubscribed".
    title: `You are unsubscribed | ${site}`,
  },
  done: page(
    "You are unsubscribed",
    `This email address is unsubscribed from ${site} emails.`,
    "We will not email this address again, and any email we had still waiting to send to it has been cancelled.",
    "Changed your mind? Press “Join the list again”, now or any time later from this link, and we will email you when we open.",
  ),
  // Only from an unsubscribe link, which proves the mailbox is theirs (decision 101).
  rejoined: page(
    "You are back on our waiting list",
    `This email address is back on the ${site} waiting list.`,
    "Thank you. Your address is confirmed again, and when we are registered with the CQC and open, we will send you one email to say so.",
    "Every email we send has an unsubscribe link, if you change your mind again.",
  ),
  invalid: page(
    "We could not read this unsubscribe link",
    "The unsubscribe link is not complete or not valid.",
    "The link may have been cut short or changed when it was copied. Nothing has been changed.",
    "Please open the link straight from one of our emails, or email us and we will unsubscribe you.",
  ),
  gone: page(
    "We no longer hold this registration",
    "The registration this link belongs to is no longer stored.",
    "The registration this link was sent for has been deleted, so we will not email this address. There is nothing more to do.",
  ),
  unavailable,
  button: "Unsubscribe",
  rejoinButton: "Join the list again",
} as const;

export const linkPageActions = {
  home: "Go to the home page",
  registerAgain: "Register again",
  contactPrefix: "Questions? Email us at",
} as const;
