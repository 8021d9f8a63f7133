import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * The one way to make a logger; it is passed down explicitly, never imported as a singleton.
 * Redaction keeps secrets out of logs even when a whole request or config object is logged.
 */
export function createLogger(options: { level: string; name?: string; destination?: pino.DestinationStream }): Logger {
  return pino(
    {
      name: options.name ?? 'svc',
      level: options.level,
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["x-api-key"]',
          'headers.authorization',
          'headers.cookie',
          'headers["x-api-key"]',
          '*.password',
          '*.passwordHash',
          '*.key',
          '*.apiKey',
          '*.secret',
          '*.signing_secret',
          '*.signingSecret',
          '*.token',
          '*.national_id',
          '*.identifiers',
          'config.JWT_SECRET',
          'config.SECRETS_KEY',
          'config.LLM_API_KEY',
          'config.PAYMENT_WEBHOOK_SECRET',
          'config.DATABASE_URL',
          'config.SMTP_URL',
        ],
        censor: '[redacted]',
      },
    },
    options.destination,
  );
}
