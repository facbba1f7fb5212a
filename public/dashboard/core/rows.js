// Repeatable rows of inputs named by their index (`config.headers.0.name`), so the API's field
// errors for list items find their input; the names follow the order after a removal.
import { el } from './format.js';

let uid = 0;

/** A `.field` with its label and control, tied by a fresh id; the control gets `name`. */
function labelled(label, control, name) {
  const id = 'r' + ++uid;
  const d = el('div', 'field');
  const l = el('label', null, label);
  l.htmlFor = id;
  control.id = id;
  control.name = name;
  d.append(l, control);
  return d;
}

export function textField(name, label, value, attrs = {}) {
  const i = el('input');
  i.value = value === undefined || value === null ? '' : value;
  for (const [k, v] of Object.entries(attrs)) i.setAttribute(k, v);
  return labelled(label, i, name);
}

export function selectField(name, label, options, value) {
  const s = el('select');
  for (const o of options) s.appendChild(new Option(o, o, false, o === value));
  return labelled(label, s, name);
}

export function checkField(name, label, checked) {
  const l = el('label', 'check');
  const i = el('input');
  i.type = 'checkbox';
  i.name = name;
  i.checked = checked;
  l.append(i, document.createTextNode(' ' + label));
  return l;
}

/** Adds a row to the list `list` in `form`; `build(index, value)` gives its fields. */
export function addRow(form, list, build, value) {
  const box = form.querySelector(`[data-list="${list}"]`);
  const row = el('div', 'rep-row');
  row.append(...build(box.children.length, value));
  const remove = el('button', 'secondary small', 'Remove');
  remove.type = 'button';
  remove.setAttribute('aria-label', 'Remove this row');
  remove.addEventListener('click', () => {
    row.remove();
    renumber(form, list);
  });
  row.appendChild(remove);
  box.appendChild(row);
  return row;
}

/** An input's name in row `index` of `list`: `http.headers.3.value` as the input of row 1 is `http.headers.1.value`. Pure. */
export function renamed(name, list, index) {
  const prefix = new RegExp('^' + list.replace(/\./g, '\\.') + '\\.\\d+\\.');
  return name.replace(prefix, `${list}.${index}.`);
}

export function renumber(form, list) {
  const box = form.querySelector(`[data-list="${list}"]`);
  [...box.children].forEach((row, i) => {
    row.querySelectorAll('[name]').forEach((inp) => {
      inp.name = renamed(inp.name, list, i);
    });
  });
}

export function clearRows(form, list) {
  form.querySelector(`[data-list="${list}"]`).textContent = '';
}

export function rowCount(form, list) {
  return form.querySelector(`[data-list="${list}"]`).children.length;
}
