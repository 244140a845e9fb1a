/**
 * Lets React Router's `serverAction()` be called more than once for one submission.
 *
 * serverAction() builds its fetch from the submission's Request and reads the body
 * with `request.text()` (a form posted as application/x-www-form-urlencoded), and a
 * Request body can be read only once: a retry would fail with "body unusable" and
 * never reach the server. We read the body once from a clone and shadow `text()` on
 * this one Request with a function that returns the same string every time
 * (docs/decisions/037). Every retry thus sends the same bytes, including the same
 * idempotency key.
 */
export async function makeBodyReplayable(request: Request): Promise<void> {
  const body = await request.clone().text();
  Object.defineProperty(request, "text", {
    configurable: true,
    value: () => Promise.resolve(body),
  });
}
