/**
 * The SMTP adapter (nodemailer over SMTP_URL). Receipts are plain text; nothing secret goes in them.
 */
import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  /** False when no SMTP server is configured: receipts are then recorded as not sent, without retries. */
  readonly configured: boolean;
  send(mail: Mail): Promise<{ messageId: string }>;
}

export function createSmtpMailer(options: { url: string; from: string; tls?: { rejectUnauthorized?: boolean; ca?: string | Buffer } }): Mailer {
  const transport = nodemailer.createTransport(options.url, { from: options.from, ...(options.tls ? { tls: options.tls } : {}) });
  return {
    configured: true,
    async send(mail) {
      const info = await transport.sendMail({ from: options.from, to: mail.to, subject: mail.subject, text: mail.text });
      return { messageId: String(info.messageId) };
    },
  };
}

/** When SMTP_URL is unset: no receipt can be sent; the payment row says so (receipt_error). */
export const unconfiguredMailer: Mailer = {
  configured: false,
  async send() {
    throw new Error('SMTP_URL is not configured: receipt not sent');
  },
};
