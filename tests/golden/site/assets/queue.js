// queue.js: filters on a project's review queue (conflicts/<project>/),
// for the default theme. Without JavaScript the page is the grouped
// lists it always is; with it, a form above them shows only the kind
// and the age asked for, and says how many entries remain. The groups
// are the page's own "## Open, across layers: 3 conflicts" headings;
// an entry's age is its "detected YYYY-MM-DD" line. No library.
(function () {
  'use strict';
  var main = document.querySelector('main');
  if (!main) return;
  var groups = [];
  main.querySelectorAll('h2').forEach(function (h) {
    var list = h.nextElementSibling;
    if (!list || list.tagName !== 'UL') return;
    var m = /^(\w+), (.*): \d+ conflicts?$/.exec(h.textContent.trim());
    groups.push({ h: h, list: list, status: m ? m[1] : h.textContent,
      kind: m ? m[2] : '' });
  });
  if (groups.length === 0) return;
  var day = 86400000, now = Date.now();
  function detected(li) {
    var m = /detected (\d{4}-\d{2}-\d{2})/.exec(li.textContent);
    return m ? Date.parse(m[1] + 'T00:00:00Z') : NaN;
  }
  function option(select, value, label) {
    var o = document.createElement('option');
    o.value = value;
    o.textContent = label;
    select.appendChild(o);
  }
  function labelled(form, id, text) {
    var label = document.createElement('label');
    var select = document.createElement('select');
    label.htmlFor = id;
    label.textContent = text;
    select.id = id;
    form.appendChild(label);
    form.appendChild(document.createTextNode(' '));
    form.appendChild(select);
    form.appendChild(document.createTextNode(' '));
    return select;
  }
  var form = document.createElement('form');
  form.className = 'queue-filter';
  form.setAttribute('aria-label', 'Filter the conflicts');
  var kind = labelled(form, 'queue-kind', 'Kind');
  var age = labelled(form, 'queue-age', 'Detected');
  var count = document.createElement('p');
  count.id = 'queue-count';
  count.setAttribute('role', 'status');
  count.setAttribute('aria-live', 'polite');
  option(kind, '', 'any');
  var kinds = [];
  groups.forEach(function (g) {
    if (g.kind && kinds.indexOf(g.kind) < 0) kinds.push(g.kind);
  });
  kinds.forEach(function (k) { option(kind, k, k); });
  option(age, '', 'any time');
  option(age, '7', 'in the last 7 days');
  option(age, '30', 'in the last 30 days');
  option(age, '-90', 'over 90 days ago');
  function apply() {
    var shown = 0;
    groups.forEach(function (g) {
      var any = 0;
      g.list.querySelectorAll(':scope > li').forEach(function (li) {
        var t = detected(li), keep = !kind.value || g.kind === kind.value;
        if (keep && age.value) {
          var d = Number(age.value);
          keep = d > 0 ? now - t <= d * day : now - t > -d * day;
        }
        li.hidden = !keep;
        if (keep) any++;
      });
      g.h.hidden = g.list.hidden = any === 0;
      shown += any;
    });
    count.textContent = shown + (shown === 1 ? ' conflict' : ' conflicts') +
      ' shown';
  }
  kind.addEventListener('change', apply);
  age.addEventListener('change', apply);
  groups[0].h.parentNode.insertBefore(form, groups[0].h);
  groups[0].h.parentNode.insertBefore(count, groups[0].h);
  apply();
})();
