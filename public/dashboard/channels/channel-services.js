// The push and paging services of the channel form (ntfy, Gotify, Telegram, Pushover, Matrix,
// PagerDuty, Home Assistant, Apprise): their fields, with help saying where each value is found in
// the service, drawn into the form once, filled from a stored channel and read back as its config.
// The rules themselves are the API's (docs/channels.md); the form shows its field errors.

const field = (key, label, help, opts = {}) => ({ key, label, help, ...opts });

export const SERVICES = {
  ntfy: {
    label: 'ntfy',
    fields: [
      field('server', 'Server', 'Your ntfy server, or leave empty for https://ntfy.sh.', {
        type: 'url',
        optional: true,
        placeholder: 'https://ntfy.sh',
      }),
      field('topic', 'Topic', 'The topic you subscribed to in the ntfy app: letters, digits, _ or -.', {
        placeholder: 'farsight-alerts',
      }),
      field(
        'token',
        'Access token',
        'Only for a protected topic: ntfy token add <user>, or the web app’s Account → Access tokens (tk_…).',
        { secret: true, optional: true },
      ),
    ],
  },
  gotify: {
    label: 'Gotify',
    fields: [
      field('server', 'Server', 'Your Gotify server’s address, with its path if it has one.', {
        type: 'url',
        placeholder: 'https://gotify.home.lan',
      }),
      field(
        'token',
        'Application token',
        'Gotify web UI → Apps → Create application, then copy its token (15 characters starting with A).',
        { secret: true },
      ),
    ],
  },
  telegram: {
    label: 'Telegram',
    fields: [
      field('bot_token', 'Bot token', 'From @BotFather: send /newbot, then copy the token (123456789:AA…).', {
        secret: true,
      }),
      field(
        'chat_id',
        'Chat id',
        'Your or a group’s id (groups are negative: -100…; message the bot, then read chat.id at api.telegram.org/bot<token>/getUpdates), or a public channel’s @name.',
        { placeholder: '-1001234567890' },
      ),
      field(
        'api_base',
        'Bot API server',
        'Only for a local Bot API server; leave empty for https://api.telegram.org.',
        {
          type: 'url',
          optional: true,
          placeholder: 'https://api.telegram.org',
        },
      ),
    ],
  },
  pushover: {
    label: 'Pushover',
    fields: [
      field('user_key', 'User key', 'At the top of your dashboard on pushover.net (or a group key): 30 characters.', {
        secret: true,
      }),
      field(
        'app_token',
        'Application token',
        'pushover.net → Your Applications → Create an Application, then copy its API token.',
        { secret: true },
      ),
      field('device', 'Devices', 'Device names separated by commas; leave empty for all your devices.', {
        optional: true,
      }),
    ],
  },
  matrix: {
    label: 'Matrix',
    fields: [
      field('homeserver', 'Homeserver', 'The address your Matrix client signs in to.', {
        type: 'url',
        placeholder: 'https://matrix.example.org',
      }),
      field(
        'access_token',
        'Access token',
        'Of the sending account (a bot account is best): Element → Settings → Help & About → Access token.',
        { secret: true },
      ),
      field(
        'room_id',
        'Room id',
        'Element → Room settings → Advanced: the internal id !…:server (not the #alias). The account must have joined the room.',
        { placeholder: '!AbCdEf:example.org' },
      ),
    ],
  },
  pagerduty: {
    label: 'PagerDuty',
    fields: [
      field(
        'routing_key',
        'Integration key',
        'PagerDuty → your service → Integrations → Add an “Events API V2” integration, then copy its Integration Key (32 characters).',
        { secret: true },
      ),
    ],
  },
  'home-assistant': {
    label: 'Home Assistant',
    fields: [
      field('url', 'Home Assistant URL', 'The address you open Home Assistant at.', {
        type: 'url',
        placeholder: 'http://homeassistant.local:8123',
      }),
      field(
        'token',
        'Long-lived access token',
        'Your profile (bottom left) → Security → Long-lived access tokens → Create token.',
        { secret: true },
      ),
      field(
        'service',
        'Notify action',
        'Developer tools → Actions lists them: notify.mobile_app_<your phone> for the companion app.',
        { placeholder: 'notify.mobile_app_phone' },
      ),
    ],
  },
  apprise: {
    label: 'Apprise',
    fields: [
      field(
        'url',
        'Notify URL',
        'Of your Apprise API server’s configuration: http://<host>:8000/notify/<key> (docs: Alert channels → Apprise).',
        { secret: true, type: 'url', placeholder: 'http://apprise.home.lan:8000/notify/farsight' },
      ),
      field('tags', 'Tags', 'Optional: which of its URLs to use. a,b = any of them; a b = all of them.', {
        optional: true,
      }),
    ],
  },
};

const idOf = (kind, key) => `cf-${kind}-${key.replace(/_/g, '-')}`;

function node(tag, attrs = {}, text) {
  const n = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) n.setAttribute(k, v);
  if (text) n.textContent = text;
  return n;
}

/** The form's part of each service kind: one `.cfg` section each, hidden until its kind is picked. */
export function serviceSections() {
  return Object.entries(SERVICES).map(([kind, s]) => {
    const div = node('div', { class: 'cfg', 'data-kind': kind, hidden: '' });
    for (const f of s.fields) {
      const id = idOf(kind, f.key);
      const wrap = node('div', { class: 'field wide' });
      const label = node('label', { for: id }, f.label);
      if (f.optional) label.append(' ', node('span', { class: 'optional' }, '(optional)'));
      const input = node('input', {
        id,
        name: `config.${f.key}`,
        type: f.secret ? 'password' : f.type || 'text',
        autocomplete: 'off',
        spellcheck: 'false',
        placeholder: f.placeholder,
        inputmode: f.type === 'url' ? 'url' : undefined,
        'aria-describedby': `${id}-hint`,
      });
      if (f.secret) input.dataset.secret = f.type || 'password';
      wrap.append(label, input, node('p', { class: 'hint', id: `${id}-hint` }, f.help));
      div.appendChild(wrap);
    }
    return div;
  });
}

/** Every service input, with how it is typed in the clear. */
export function serviceInputs(form) {
  return Object.entries(SERVICES).flatMap(([kind, s]) =>
    s.fields.map((f) => ({ input: form.querySelector('#' + idOf(kind, f.key)), field: f })),
  );
}

/** A stored channel's values into its kind's inputs (secrets arrive as ********). */
export function fillService(form, kind, config, showStored) {
  for (const f of SERVICES[kind].fields) {
    const input = form.querySelector('#' + idOf(kind, f.key));
    const v = config[f.key];
    if (f.secret) showStored(input, v ?? '', f.type === 'url' ? 'url' : 'password');
    else input.value = v ?? '';
  }
}

/** The config a service kind's inputs say: empty optional fields are left out (their defaults apply). */
export function serviceConfig(form, kind) {
  const config = {};
  for (const f of SERVICES[kind].fields) {
    const input = form.querySelector('#' + idOf(kind, f.key));
    const v = f.secret ? input.value : input.value.trim();
    if (v === '' && f.optional) continue;
    config[f.key] = v;
  }
  return config;
}
