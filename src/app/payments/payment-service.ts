/**
 * Inbound payment-provider events (Stripe format). A verified `checkout.session.completed` for a paid
 * session:
 *   1. activates the plan: ChangePlan {providerEventId} on the account (the decider ignores an id it
 *      has already applied, so a redelivery changes nothing);
 *   2. creates the payment record (one row per provider event id, INSERT … ON CONFLICT DO NOTHING);
 *   3. sends the receipt e-mail once: the row is claimed before sending and marked sent after.
 * Each step is idempotent on its own, so a delivery that failed half-way is completed by the
 * provider's retry and a duplicate delivery does nothing at all.
 */
import type { StoreServiceDeps } from '../webhook-deps';
import { accountDecider, streamName as accountStream } from '../../commands/account';
import { isPlan, type Plan } from '../../commands/plans';
import { projectionSchema } from '../../projections/projection';
import { handleCommand, loadAggregate } from '../../commands/command-handler';
import type { Mailer } from './mailer';

export interface CheckoutOutcome {
  handled: boolean;
  reason?: string;
  planChanged?: boolean;
  paymentCreated?: boolean;
  receipt?: 'sent' | 'already_sent' | 'failed' | 'in_progress' | 'not_configured' | 'no_recipient';
  paymentId?: string;
}

interface StripeEvent {
  id?: unknown;
  type?: unknown;
  data?: { object?: Record<string, unknown> };
}

const NUMERIC = /^[1-9][0-9]{0,18}$/;
const RECEIPT_CLAIM_SECONDS = 300;

export class PaymentService {
  private readonly accounts = projectionSchema('accounts');

  constructor(
    private readonly deps: StoreServiceDeps & {
      mailer: Mailer;
      provider?: string;
    },
  ) {}

  /** Handles a verified event. Throws only for infrastructure failures (the provider then retries). */
  async handleEvent(event: StripeEvent): Promise<CheckoutOutcome> {
    if (typeof event.id !== 'string' || !/^evt_[A-Za-z0-9_]{1,255}$/.test(event.id)) return { handled: false, reason: 'event id missing or malformed' };
    if (event.type !== 'checkout.session.completed') return { handled: false, reason: `event type ${String(event.type)} is not handled` };
    const session = event.data?.object ?? {};
    const metadata = (session.metadata ?? {}) as Record<string, unknown>;
    const accountId = typeof metadata.account_id === 'string' ? metadata.account_id : session.client_reference_id;
    const plan = metadata.plan;
    if (typeof accountId !== 'string' || !NUMERIC.test(accountId)) return { handled: false, reason: 'no account (client_reference_id or metadata.account_id)' };
    if (!isPlan(plan)) return { handled: false, reason: 'metadata.plan is not a known plan' };
    if (session.payment_status !== 'paid' && session.payment_status !== 'no_payment_required') return { handled: false, reason: `payment_status ${String(session.payment_status)}` };
    const sessionId = typeof session.id === 'string' ? session.id : '';
    const { state } = await loadAggregate(this.deps.store, accountDecider, accountStream(accountId));
    if (state.status === 'none') return { handled: false, reason: `account ${accountId} not found` };

    const now = this.deps.clock.now();
    const changed = await handleCommand(this.deps.store, accountDecider, accountStream(accountId), {
      type: 'ChangePlan',
      data: { accountId, plan: plan as Plan, providerEventId: event.id, source: 'payment' },
      metadata: { now: now.toISOString(), actor: { surface: 'system' }, commandId: `payment:${event.id}`, correlationId: event.id },
    });
    await this.deps.readModelsCaughtUp();

    const details = (session.customer_details ?? {}) as Record<string, unknown>;
    const email = typeof details.email === 'string' ? details.email : typeof session.customer_email === 'string' ? session.customer_email : await this.ownerEmail(accountId);
    const amount = typeof session.amount_total === 'number' && Number.isSafeInteger(session.amount_total) ? session.amount_total : null;
    const currency = typeof session.currency === 'string' ? session.currency.slice(0, 10) : null;
    const inserted = await this.deps.pool.query<{ payment_id: string }>(
      `INSERT INTO payments (provider, provider_event_id, checkout_session_id, account_id, plan, amount_total, currency, customer_email, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (provider_event_id) DO NOTHING RETURNING payment_id::text`,
      [this.deps.provider ?? 'stripe', event.id, sessionId.slice(0, 255), accountId, plan, amount, currency, email ?? null, now],
    );
    const { rows } = await this.deps.pool.query<{ payment_id: string }>('SELECT payment_id::text FROM payments WHERE provider_event_id = $1', [event.id]);
    const paymentId = rows[0]!.payment_id;
    const receipt = await this.sendReceipt(paymentId, { email, plan: plan as Plan, amount, currency, accountId, sessionId });
    return { handled: true, planChanged: changed.events.length > 0, paymentCreated: inserted.rowCount === 1, receipt, paymentId };
  }

  private async ownerEmail(accountId: string): Promise<string | undefined> {
    const { rows } = await this.deps.pool.query<{ email: string }>(`SELECT email FROM ${this.accounts}.users WHERE account_id = $1 AND role = 'owner' ORDER BY user_id LIMIT 1`, [accountId]);
    return rows[0]?.email;
  }

  private async sendReceipt(
    paymentId: string,
    p: { email: string | undefined; plan: Plan; amount: number | null; currency: string | null; accountId: string; sessionId: string },
  ): Promise<CheckoutOutcome['receipt']> {
    const now = this.deps.clock.now();
    // Claim the receipt: only one delivery of the event sends it; a stale claim (crashed sender) is retaken.
    const claimed = await this.deps.pool.query(
      `UPDATE payments SET receipt_claimed_at = $2
        WHERE payment_id = $1 AND receipt_sent_at IS NULL AND (receipt_claimed_at IS NULL OR receipt_claimed_at < $3)`,
      [paymentId, now, new Date(now.getTime() - RECEIPT_CLAIM_SECONDS * 1000)],
    );
    if (!claimed.rowCount) {
      const { rows } = await this.deps.pool.query<{ sent: boolean }>('SELECT receipt_sent_at IS NOT NULL AS sent FROM payments WHERE payment_id = $1', [paymentId]);
      return rows[0]?.sent ? 'already_sent' : 'in_progress';
    }
    if (!this.deps.mailer.configured) {
      // Retrying cannot help until an operator configures SMTP: record it and let the event succeed.
      await this.deps.pool.query('UPDATE payments SET receipt_error = $2, receipt_claimed_at = NULL WHERE payment_id = $1', [paymentId, 'SMTP_URL not configured']);
      return 'not_configured';
    }
    if (!p.email) {
      await this.deps.pool.query('UPDATE payments SET receipt_error = $2, receipt_claimed_at = NULL WHERE payment_id = $1', [paymentId, 'no e-mail address']);
      return 'no_recipient';
    }
    const amount = p.amount !== null && p.currency ? `${(p.amount / 100).toFixed(2)} ${p.currency.toUpperCase()}` : 'see your invoice';
    try {
      const sent = await this.deps.mailer.send({
        to: p.email,
        subject: `Receipt: ${p.plan} plan activated`,
        text: [
          'Thank you for your payment.',
          '',
          `Plan: ${p.plan}`,
          `Amount: ${amount}`,
          `Account: ${p.accountId}`,
          `Payment reference: ${paymentId} (checkout ${p.sessionId || 'n/a'})`,
          `Date: ${now.toISOString()}`,
        ].join('\n'),
      });
      await this.deps.pool.query('UPDATE payments SET receipt_sent_at = $2, receipt_message_id = $3, receipt_error = NULL WHERE payment_id = $1', [paymentId, now, sent.messageId]);
      return 'sent';
    } catch (error) {
      await this.deps.pool.query('UPDATE payments SET receipt_error = $2, receipt_claimed_at = NULL WHERE payment_id = $1', [
        paymentId,
        (error instanceof Error ? error.message : String(error)).slice(0, 500),
      ]);
      return 'failed';
    }
  }
}
