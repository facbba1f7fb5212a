// Forgot password: asks for a reset link. The answer is the same whether or not the email is
// the owner's, so the page says "if".
import { errorWords } from '../shared/errors.js';
import { busy, pageIds, say } from '../shared/page.js';
import { api, botCheck, withChallenge } from './common.js';

const $ = pageIds(['bot-check', 'forgot-form', 'sent', 'sent-to'], 'forgot.js');

const form = $('forgot-form');
const out = form.querySelector('.form-error');
const check = botCheck($('bot-check'));
form.hidden = false;

form.addEventListener('submit', (ev) => {
  ev.preventDefault();
  say(out, null);
  const email = form.email.value.trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) return say(out, "Enter the owner's email address.");
  busy(form.querySelector('button[type=submit]'), 'Sending…', async () => {
    try {
      await api('auth/forgot', withChallenge({ email }, check));
      $('sent-to').textContent = email;
      form.hidden = true;
      $('sent').hidden = false;
    } catch (err) {
      say(out, errorWords(err));
    } finally {
      check.reset();
    }
  });
});
