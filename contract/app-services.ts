import type { ConsoleServices } from "./console.ts";
import type { RegistrationService } from "./registrations.ts";

/**
 * What the Node server hands to route actions through React Router context
 * (docs/decisions/007). The context key itself is app-side (app/lib/app-context.ts,
 * exported from app/entry.server.tsx); server/ and app/ both import this type from here.
 */
export type AppServices = {
  registrations: RegistrationService;
  /**
   * The server's one logger (pino, server/logger.ts), so LOG_LEVEL and its redaction
   * list apply to route code too. Only what routes need: fields first, then the message.
   */
  logger: AppLogger;
  /** The per-request nonce for the Content-Security-Policy of server-rendered HTML. */
  nonce: string;
  /** Set only by the console listener (docs/decisions/133); console routes require it. */
  console?: ConsoleServices;
};

/** The part of the server's logger that route code uses. Never pass form values. */
export type AppLogger = {
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
};
