/** Every channel kind's sender, by kind: the one list the channels and the outbox look senders up in. */
import type { ChannelKind, ChannelSender } from '../channel-kind';
import { chatSender } from './chat';
import { emailSender } from './email';
import { webhookSender } from './webhook';
import { appriseSender } from './services/apprise';
import { gotifySender } from './services/gotify';
import { homeAssistantSender } from './services/home-assistant';
import { matrixSender } from './services/matrix';
import { ntfySender } from './services/ntfy';
import { pagerDutySender } from './services/pagerduty';
import { pushoverSender } from './services/pushover';
import { telegramSender } from './services/telegram';

export const SENDERS: Record<ChannelKind, ChannelSender> = {
  email: emailSender,
  chat: chatSender,
  webhook: webhookSender,
  ntfy: ntfySender,
  gotify: gotifySender,
  telegram: telegramSender,
  pushover: pushoverSender,
  matrix: matrixSender,
  pagerduty: pagerDutySender,
  'home-assistant': homeAssistantSender,
  apprise: appriseSender,
};

export function senderOf(kind: ChannelKind): ChannelSender {
  return SENDERS[kind];
}
