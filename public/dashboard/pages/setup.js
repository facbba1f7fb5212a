// First-run setup page: reads the token from the URL, shows the authenticator secret,
// posts the form to the API and shows the recovery codes once.
import { pageIds } from '../../shared/page.js';

// public-url and page-origin are rendered only while no public URL is configured: looked up apart.
const $ = pageIds(
  ['checking', 'invalid', 'setup-form', 'done', 'expires', 'secret', 'qr', 'form-error', 'codes'],
  'setup',
);
const optional = (id) => document.getElementById(id);

var token = decodeURIComponent(location.pathname.split('/').pop() || '');
var api = '/api/v1/auth/setup/' + encodeURIComponent(token);
function show(id) {
  ['checking', 'invalid', 'setup-form', 'done'].forEach(function (x) {
    $(x).hidden = x !== id;
  });
}

fetch(api, { credentials: 'same-origin' })
  .then(function (r) {
    return r.json();
  })
  .then(function (info) {
    if (!info.valid) return show('invalid');
    $('expires').textContent = new Date(info.expires_at).toLocaleString();
    $('expires').setAttribute('datetime', info.expires_at);
    $('secret').textContent = info.totp.secret;
    $('qr').src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(info.totp.qr_svg);
    offerPublicUrl();
    show('setup-form');
  })
  .catch(function () {
    show('invalid');
  });

// Rendered only while no public URL is configured; offered only when this page is open elsewhere.
function offerPublicUrl() {
  var box = optional('public-url');
  if (!box || box.getAttribute('data-public-url') === location.origin) return;
  optional('page-origin').textContent = location.origin;
  box.hidden = false;
}

$('setup-form').addEventListener('submit', function (ev) {
  ev.preventDefault();
  var form = ev.target;
  var err = $('form-error');
  err.hidden = true;
  var body = {
    email: form.email.value.trim(),
    password: form.password.value,
    code: form.code.value.trim(),
  };
  var box = optional('public-url');
  if (box && !box.hidden && form.save_public_url.checked) body.public_url = location.origin;
  form.querySelector('button').disabled = true;
  fetch(api, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  })
    .then(function (r) {
      return r.json().then(function (j) {
        return { ok: r.ok, body: j };
      });
    })
    .then(function (res) {
      if (!res.ok) {
        var e = res.body.error || {};
        err.textContent =
          (e.fields && e.fields.length
            ? e.fields
                .map(function (f) {
                  return f.field + ': ' + f.message;
                })
                .join('; ')
            : e.message) || 'Setup failed.';
        err.hidden = false;
        if (e.code === 'not_found') show('invalid');
        return;
      }
      var list = $('codes');
      res.body.recovery_codes.forEach(function (c) {
        var li = document.createElement('li');
        li.textContent = c;
        list.appendChild(li);
      });
      show('done');
    })
    .catch(function () {
      err.textContent = 'The server could not be reached. Try again.';
      err.hidden = false;
    })
    .then(function () {
      form.querySelector('button').disabled = false;
    });
});
