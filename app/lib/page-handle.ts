/**
 * What a route module exports as `handle`. Root renders React Router's <Scripts/> (and so
 * hydrates the page) only when a matched route says `hydrate: true`: the quiz, the cost
 * calculator and the registration form. Every other page is HTML, CSS and the inline page
 * script alone (docs/decisions/105).
 */
export type PageHandle = { hydrate?: boolean };

/** The handle of a page that needs React in the browser. */
export const hydratedPage: PageHandle = { hydrate: true };
