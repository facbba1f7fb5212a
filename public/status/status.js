/* Farsight status page: the one script. Without it every range is a plain link and times read in
   the page's own zone. With it: range tabs switch in place, moments show in the visitor's zone
   (day and month bars keep the page's days), the page refreshes in place every minute when the
   owner turned auto refresh on and whenever it comes back to the front after a minute away, a
   failed refresh keeps the page and says so, and bars show their details on hover. */
(function () {
  'use strict';
  var doc = document;
  var root = doc.documentElement;
  var MINUTE = 60000;
  var lastLoad = Date.now();
  var busy = false;

  var dateTime = new Intl.DateTimeFormat(undefined, {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  });
  var timeOnly = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });

  function localTimes(scope) {
    var times = scope.querySelectorAll('time[datetime][data-f]');
    for (var i = 0; i < times.length; i++) {
      var t = times[i];
      var d = new Date(t.getAttribute('datetime'));
      if (isNaN(d.getTime())) continue;
      var fmt = t.getAttribute('data-f') === 't' ? timeOnly : dateTime;
      if (!t.hasAttribute('title')) t.setAttribute('title', t.textContent);
      t.textContent = fmt.format(d);
    }
    var zone = scope.querySelectorAll('.zone');
    var name = '';
    try {
      name = Intl.DateTimeFormat().resolvedOptions().timeZone || '';
    } catch (e) {
      name = '';
    }
    for (var j = 0; j < zone.length; j++)
      zone[j].textContent = 'your time zone' + (name ? ' (' + name + ')' : '') + '; days in bars follow the page';
  }

  function offline(on) {
    var el = doc.querySelector('.offline');
    if (!el) return;
    el.textContent = on ? 'Offline: showing the page as of ' + timeOnly.format(new Date(lastLoad)) : '';
  }

  /** Fetches a page of the status site and puts its content in place of ours. */
  function load(url, push) {
    if (busy) return Promise.resolve(false);
    busy = true;
    return fetch(url, { headers: { Accept: 'text/html' }, credentials: 'omit', cache: 'no-store' })
      .then(function (res) {
        if (!res.ok) throw new Error('HTTP ' + res.status);
        return res.text();
      })
      .then(function (html) {
        var next = new DOMParser().parseFromString(html, 'text/html');
        var fresh = next.getElementById('content');
        var here = doc.getElementById('content');
        if (!fresh || !here) throw new Error('no content');
        here.replaceWith(fresh);
        var foot = next.querySelector('.site-foot');
        var oldFoot = doc.querySelector('.site-foot');
        if (foot && oldFoot) oldFoot.replaceWith(foot);
        if (next.title) doc.title = next.title;
        if (push) history.pushState({ status: true }, '', url);
        lastLoad = Date.now();
        localTimes(doc);
        offline(false);
        return true;
      })
      .catch(function () {
        offline(true);
        return false;
      })
      .then(function (ok) {
        busy = false;
        return ok;
      });
  }

  function refresh() {
    return load(location.href, false);
  }

  doc.addEventListener('click', function (e) {
    var a = e.target && e.target.closest ? e.target.closest('.tabs a[href]') : null;
    if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    var url = a.href;
    load(url, true).then(function (ok) {
      if (!ok) return;
      var tab = doc.querySelector('.tabs a[aria-current]');
      if (tab) tab.focus();
    });
  });

  window.addEventListener('popstate', function () {
    refresh();
  });

  if (root.hasAttribute('data-refresh')) {
    setInterval(function () {
      if (doc.visibilityState === 'visible') refresh();
    }, MINUTE);
  }

  doc.addEventListener('visibilitychange', function () {
    if (doc.visibilityState === 'visible' && Date.now() - lastLoad >= MINUTE) refresh();
  });

  /* Bar details on hover. Bars with downtime carry their words (title); the others are named here
     from their strip's first period and unit: days and months as the page counts them (UTC dates
     of the page's own days), hours and blocks as moments in the visitor's zone. */
  var dayName = new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  });
  var monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
  var hourName = new Intl.DateTimeFormat(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
  });
  var WORDS = {
    ok: 'no downtime',
    no_data: 'no data',
    not_watched: 'not watched yet',
    warn: 'some downtime',
    bad: 'major downtime',
  };

  function barWords(b) {
    var strip = b.parentNode;
    var first = strip.getAttribute('data-first') || '';
    var unit = strip.getAttribute('data-unit');
    var i = Array.prototype.indexOf.call(strip.children, b);
    var label = '';
    var p = first.split(/[-T:.Z]/).map(Number);
    if (unit === 'day') label = dayName.format(new Date(Date.UTC(p[0], p[1] - 1, p[2] + i)));
    else if (unit === 'month') label = monthName.format(new Date(Date.UTC(p[0], p[1] - 1 + i, 1)));
    else {
      var step = unit === 'block' ? 6 : 1;
      var start = Date.parse(first) + i * step * 3600000;
      label = hourName.format(new Date(start)) + '-' + timeOnly.format(new Date(start + step * 3600000));
    }
    // The server's words for a bar with downtime ("99.95%, down 2 min") follow the period's name.
    var said = b.getAttribute('data-tip');
    if (said) return label + ': ' + said.slice(said.indexOf(': ') + 2);
    var state = (b.className.match(/\b(ok|warn|bad|no_data|not_watched)\b/) || [])[1];
    return label + ': ' + (WORDS[state] || '');
  }

  /* Shown at once and styled like the page. */
  var tip = doc.createElement('div');
  tip.className = 'tip';
  tip.hidden = true;
  tip.setAttribute('aria-hidden', 'true');
  doc.body.appendChild(tip);
  doc.addEventListener('mouseover', function (e) {
    var b = e.target && e.target.closest ? e.target.closest('.bars .b') : null;
    if (!b) {
      tip.hidden = true;
      return;
    }
    var text = b.getAttribute('title');
    if (text) {
      b.setAttribute('data-tip', text);
      b.removeAttribute('title');
    }
    tip.textContent = barWords(b);
    tip.hidden = false;
    var r = b.getBoundingClientRect();
    var w = tip.offsetWidth;
    var x = Math.min(Math.max(8, r.left + r.width / 2 - w / 2), window.innerWidth - w - 8);
    var y = r.top - tip.offsetHeight - 8;
    tip.style.left = x + 'px';
    tip.style.top = (y < 8 ? r.bottom + 8 : y) + 'px';
  });
  window.addEventListener(
    'scroll',
    function () {
      tip.hidden = true;
    },
    { passive: true },
  );

  localTimes(doc);
})();
