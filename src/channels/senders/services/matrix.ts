/**
 * Matrix (https://spec.matrix.org/v1.11/client-server-api/#put_matrixclientv3roomsroomidsendeventtypetxnid):
 * PUT <homeserver>/_matrix/client/v3/rooms/<room>/send/m.room.message/<txnId> with the access
 * token as `Authorization: Bearer`. The transaction id is the outbox message's id, the same on
 * every retry, so a homeserver that already took it answers with the same event and posts
 * nothing twice (#transaction-identifiers).
 *
 * The event: msgtype m.text (not m.notice: the default push rule .m.rule.suppress_notices keeps
 * notices from notifying anyone, and an alert must), body in plain text, formatted_body in HTML
 * (org.matrix.custom.html), and an empty m.mentions so no @room or user in a monitor's name pings
 * anybody (#user-and-room-mentions). Events are at most 65,536 bytes: the text stays far below.
 *
 * config: {homeserver, access_token (secret), room_id (!opaque:server)}.
 */
import { systemClock } from '../../../common/clock';
import type { ChannelSender, OutboundMessage, ParsedConfig, SendContext, SendResult } from '../../channel-kind';
import { shownEvents } from '../../messages';
import { callService } from './answers';
import { notAnObject, openConfig, parsed, serverField, textField, tokenField } from './fields';
import { alertText, HTML, PLAIN } from './text';

export interface MatrixConfig {
  homeserver: string;
  access_token: string;
  room_id: string;
}

/** A room id: ! then an opaque part, a colon and the server name (#room-ids); not an #alias. */
export const MATRIX_ROOM = /^![^:\s/]{1,200}:[A-Za-z0-9.-]+(:\d{1,5})?$/;
/** Access tokens are opaque: visible ASCII, no spaces. */
export const MATRIX_TOKEN = /^[\x21-\x7e]{8,1024}$/;
const BUDGET = 16_000;

function parseMatrix(raw: unknown): ParsedConfig<MatrixConfig> {
  const open = openConfig(raw, ['homeserver', 'access_token', 'room_id']);
  if (!open) return notAnObject();
  const { body, errors } = open;
  const homeserver = serverField(body, 'homeserver', errors);
  const token = tokenField(
    body,
    'access_token',
    errors,
    MATRIX_TOKEN,
    'an access token (Element: Settings → Help & About → Access token)',
  );
  const room = textField(
    body,
    'room_id',
    errors,
    MATRIX_ROOM,
    'a room id such as !AbCdEf:example.org (Element: Room settings → Advanced), not an #alias',
  );
  return parsed(errors, { homeserver, access_token: token ?? '', room_id: room ?? '' });
}

export function matrixContent(message: OutboundMessage, now: number, publicUrl: string): object {
  const events = shownEvents(message, now);
  const o = { publicUrl, test: message.test, budget: BUDGET, emoji: true };
  return {
    msgtype: 'm.text',
    body: alertText(message, events, PLAIN, o).text,
    format: 'org.matrix.custom.html',
    formatted_body: alertText(message, events, HTML, o).text.replace(/\n/g, '<br>'),
    'm.mentions': {},
  };
}

/** The transaction id: the message id, made safe for a path segment. */
export function matrixTxnId(message: OutboundMessage): string {
  return encodeURIComponent(message.id);
}

async function sendMatrix(config: MatrixConfig, message: OutboundMessage, ctx: SendContext): Promise<SendResult> {
  const body = JSON.stringify(matrixContent(message, systemClock.now(), ctx.publicUrl));
  const room = encodeURIComponent(config.room_id);
  return callService(
    'matrix',
    {
      method: 'PUT',
      url: `${config.homeserver}/_matrix/client/v3/rooms/${room}/send/m.room.message/${matrixTxnId(message)}`,
      body,
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${config.access_token}` },
      secrets: [config.access_token],
    },
    ctx,
  );
}

export const matrixSender: ChannelSender<MatrixConfig> = {
  kind: 'matrix',
  secrets: [{ path: 'access_token' }],
  destination: ['homeserver'],
  parseConfig: parseMatrix,
  send: sendMatrix,
};
