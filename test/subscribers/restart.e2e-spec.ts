/**
 * The subscribers' mail queue across a stop: a confirmation queued but not sent when the service
 * stopped is sent after the next start, and one left `sending` (the service died mid-send) is sent
 * again RESEND_AFTER_START_MS after the start, with the same Message-ID for receivers to dedupe.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { headersOf, SmtpServer, startSmtp } from '../../harness/servers/smtp-farm';
import { FakeClock } from '../../src/common/clock';
import { RESEND_AFTER_START_MS, SubscriberDispatcher } from '../../src/subscribers/subscriber-dispatcher.service';
import { bearer, createKey, createOwner, startApp } from '../support/app';

describe('the subscribers mail queue across a restart', () => {
  let smtp: SmtpServer;
  let dataDir: string;

  beforeEach(async () => {
    smtp = await startSmtp();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'farsight-subs-'));
  });
  afterEach(async () => {
    await smtp.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('sends after the next start what was queued or being sent when the service stopped', async () => {
    const clock = new FakeClock(Date.UTC(2026, 10, 1, 12));
    const env = { FARSIGHT_SMTP: smtp.url };
    let t = await startApp(env, { dataDir, clock });
    const { cookie } = await createOwner(t);
    const admin = await createKey(t, cookie, 'admin');
    await t.http.put('/api/v1/status-page').set(bearer(admin)).send({ subscribers: true }).expect(200);
    await t.http.post('/api/public/subscribe').send({ email: 'queued@example.com' }).expect(202);
    await t.http.post('/api/public/subscribe').send({ email: 'sending@example.com' }).expect(202);
    // The second one was being sent when the service died: its row says `sending`.
    await t.db.tx((m) =>
      m.query(
        "UPDATE subscriber_mail SET state = 'sending', tries = 1 WHERE subscriber_id = (SELECT id FROM subscribers WHERE email = 'sending@example.com')",
      ),
    );
    const before = smtp.mails.length;
    await t.close();
    expect(smtp.mails).toHaveLength(before);

    t = await startApp(env, { dataDir, clock });
    try {
      await t.app.get(SubscriberDispatcher).runDue();
      const sent = () => smtp.mails.slice(before).map((m) => m.to[0]);
      expect(sent()).toEqual(['queued@example.com']);
      clock.advance(RESEND_AFTER_START_MS);
      await t.app.get(SubscriberDispatcher).runDue();
      expect(sent()).toEqual(['queued@example.com', 'sending@example.com']);
      const [row] = await t.db.read<{ id: number; state: string }[]>(
        "SELECT id, state FROM subscriber_mail WHERE subscriber_id = (SELECT id FROM subscribers WHERE email = 'sending@example.com')",
      );
      expect(row.state).toBe('sent');
      expect(headersOf(smtp.mails[smtp.mails.length - 1].raw).get('message-id')).toBe(
        `<farsight-subscriber-${row.id}>`,
      );
    } finally {
      await t.close();
    }
  });
});
