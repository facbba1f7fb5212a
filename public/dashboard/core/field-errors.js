// The API's refusal shown in a form: a 422 names each field by its dotted path (`http.url`,
// `http.headers[1].value`); each message goes under its input, marked invalid for screen readers,
// the rest in the form's .form-error, and the focus moves to the first. Nothing typed is touched.
import { ApiFailure, errorWords, sentence } from '../../shared/errors.js';
import { say } from '../../shared/page.js';

const FIELD_ERROR = 'field-error';

/** Removes the errors fieldErrors() put in a form. */
export function clearErrors(form) {
  form.querySelectorAll('.' + FIELD_ERROR).forEach((p) => p.remove());
  form.querySelectorAll('[aria-invalid]').forEach((el) => {
    el.removeAttribute('aria-invalid');
    const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter((id) => id && !id.startsWith('err-'));
    if (ids.length) el.setAttribute('aria-describedby', ids.join(' '));
    else el.removeAttribute('aria-describedby');
  });
  const general = form.querySelector('.form-error');
  if (general) say(general, null);
}

/**
 * Shows an ApiFailure in a form: each of its fields (dotted paths such as `http.url` or
 * `http.headers.0.value`) next to the input of that name, the rest in the form's .form-error.
 * The first input in error gets the focus.
 */
export function fieldErrors(form, err, words = {}) {
  clearErrors(form);
  const loose = [];
  let first = null;
  const fields =
    err instanceof ApiFailure && err.code === 'invalid'
      ? err.fields.length
        ? err.fields
        : [{ field: err.field, message: err.message }]
      : [];
  for (const f of fields) {
    // Inputs of list items are named `http.headers.1.value`; the API says `http.headers[1].value`.
    const name = f.field ? f.field.replace(/\[(\d+)\]/g, '.$1') : null;
    const input = name ? form.querySelector('[name="' + CSS.escape(name) + '"]') : null;
    if (!input) {
      loose.push((words[f.field] || f.field || '') + (f.field ? ': ' : '') + f.message);
      continue;
    }
    const p = document.createElement('p');
    p.className = FIELD_ERROR;
    p.id = 'err-' + name.replace(/[^a-z0-9_-]/gi, '-');
    p.textContent = sentence(f.message);
    const field = input.closest('.field');
    if (field) field.appendChild(p);
    else input.after(p);
    input.setAttribute('aria-invalid', 'true');
    input.setAttribute('aria-describedby', ((input.getAttribute('aria-describedby') || '') + ' ' + p.id).trim());
    first = first || input;
  }
  const general = form.querySelector('.form-error');
  const text = fields.length ? loose.map(sentence).join(' ') : errorWords(err);
  if (general && text) say(general, text);
  if (first) first.focus();
  else if (general && text) general.scrollIntoView({ block: 'nearest' });
}
