// Injected by the engine harness (tests/engines) before any script of every page: by a
// WebDriver BiDi preload script in Firefox, by a WebKit user script in WebKitGTK. Neither
// is subject to the page's CSP, so the production policy stays as it is. It records what
// classic WebDriver cannot see; the harness reads window.__engineProblems after each step.
(() => {
  const problems = (window.__engineProblems = []);
  const note = (kind, text) => problems.push(`${kind}: ${String(text).slice(0, 500)}`);
  window.addEventListener(
    "error",
    (event) => {
      const target = event.target;
      if (target && target !== window && target.tagName) {
        note("failed load", target.src || target.href || target.tagName);
      } else {
        note("uncaught", event.message);
      }
    },
    true,
  );
  window.addEventListener("unhandledrejection", (event) =>
    note("unhandled rejection", event.reason),
  );
  document.addEventListener("securitypolicyviolation", (event) =>
    note("csp", `${event.violatedDirective} ${event.blockedURI}`),
  );
  const original = console.error.bind(console);
  console.error = (...args) => {
    note("console.error", args.join(" "));
    original(...args);
  };
  // WebKitGTK only: the shell answers with the HTTP status of this document's response.
  window.webkit?.messageHandlers?.engineStatus?.postMessage(location.href).then((status) => {
    window.__engineStatus = status;
  });
})();
