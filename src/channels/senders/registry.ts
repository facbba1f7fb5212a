/** Every channel kind's sender, by kind: the one list the channels and the outbox look senders up in. */
import type { ChannelKind, ChannelSender } from '../channel-kind';
import { chatSender } from './chat';
import { emailSender } from './email';
import { webhookSender } from './webhook';

export const SENDERS: Record<ChannelKind, ChannelSender> = {
  email: emailSender,
  chat: chatSender,
  webhook: webhookSender,
};

export function senderOf(kind: ChannelKind): ChannelSender {
  return SENDERS[kind];
}
