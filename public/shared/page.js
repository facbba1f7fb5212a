// What every page's script does to its own elements: finds them by id (and says which are
// missing), shows a message in a form's role=alert element, marks a button busy while work runs.
// Shared by the sign-in pages and the dashboard.

/**
 * The page's elements by id: `const $ = pageIds(['list', 'counts'])` checks at once that the page
 * has every id the script names, and throws one error naming all that are missing (a view and
 * its script renamed apart fail on load, not at the first click). `$(id)` then finds the element
 * as it is now; an id left out of the list throws too, so the list stays the whole contract.
 * `scope` names the script in the error.
 */
export function pageIds(ids, scope = 'this page') {
  const missing = ids.filter((id) => !document.getElementById(id));
  if (missing.length)
    throw new Error(scope + ' needs ' + missing.map((id) => '#' + id).join(', ') + ', which the page does not have');
  const known = new Set(ids);
  return (id) => {
    if (!known.has(id)) throw new Error(scope + ' asks for #' + id + ' without naming it in its pageIds() list');
    const found = document.getElementById(id);
    if (!found) throw new Error(scope + ' needs #' + id + ', which is no longer on the page');
    return found;
  };
}

/** Shows a message in a form's role=alert element (or hides it with null). */
export function say(el, text) {
  el.textContent = text || '';
  el.hidden = !text;
}

/** Disables a button with a busy label while work runs; gives the label back afterwards. */
export async function busy(button, label, work) {
  const before = button.textContent;
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  button.textContent = label;
  try {
    return await work();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
    button.textContent = before;
  }
}
