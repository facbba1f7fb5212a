/**
 * The mail path as its users see it (alert email channels, sign-in and reset emails): the
 * configured providers in order, and what one send achieved. Pure types.
 */

/** What one attempt to deliver achieved: an email, a chat post or a webhook call. */
export interface SendResult {
  ok: boolean;
  /** Who carried it: the mail provider's name (its host), "slack" / "discord" / ..., or "webhook". */
  provider: string | null;
  /** HTTP status or SMTP reply code, when there was one. */
  status: number | null;
  /** Why it failed: short (at most 300 characters), never a secret (URLs with tokens are masked). */
  error: string | null;
  /** A failure that retrying cannot fix (a 4xx other than 408/429, a bad address, a refused private target). */
  permanent: boolean;
  /**
   * A retryable failure where the service said how long to wait (Telegram `retry_after`, Matrix
   * `retry_after_ms`, Retry-After): the next try is not before this many ms from now.
   */
  retryAfterMs?: number;
}

/** One email: both bodies, and the Message-ID receivers dedupe on. */
export interface OutgoingMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  messageId: string;
  /** Headers of its own (a subscriber's List-Unsubscribe); the transport's own cannot be replaced. */
  headers?: Record<string, string>;
}

/** Mail as the senders see it: the configured providers in order (primary, then fallback). */
export interface MailTransport {
  /** Provider names (hosts), in order; empty when no provider is configured. */
  readonly providers: readonly string[];
  /** Sends through the first provider that takes it; says which one, and why each failed. */
  send(mail: OutgoingMail): Promise<SendResult>;
}
