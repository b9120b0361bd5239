// changes.js: filters on the recent changes (changes.html), for the
// default theme. Without JavaScript the page is the list by day it
// always is; with it, a form above the days shows only the project and
// the kind of change asked for, hides a day left empty, and says how
// many entries remain. An entry's kind is its first words ("conflict
// opened", "check passing again", "first build"); its project is the
// link after "in " (each project links its overview). No library.
(function () {
  'use strict';
  var main = document.querySelector('main');
  if (!main) return;
  var days = [], entries = [];
  main.querySelectorAll('h2').forEach(function (h) {
    var list = h.nextElementSibling;
    if (!list || list.tagName !== 'UL') return;
    var day = { h: h, list: list, items: [] };
    list.querySelectorAll(':scope > li').forEach(function (li) {
      var lead = li.firstChild, text = lead ? lead.textContent : '';
      var m = /^(.*?)(?: in |: )/.exec(text), project = '';
      var next = lead ? lead.nextSibling : null;
      if (/ in $/.test(text) && next && next.tagName === 'A')
        project = next.textContent.trim();
      var e = { li: li, kind: m ? m[1] : text.trim(), project: project };
      day.items.push(e);
      entries.push(e);
    });
    days.push(day);
  });
  if (entries.length === 0) return;
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
  // The distinct values of key over the entries, each with its count.
  function counted(key) {
    var n = {};
    entries.forEach(function (e) {
      if (e[key]) n[e[key]] = (n[e[key]] || 0) + 1;
    });
    return n;
  }
  var names = new Intl.Collator(undefined, { numeric: true,
    sensitivity: 'base' });
  var form = document.createElement('form');
  form.className = 'queue-filter';
  form.setAttribute('aria-label', 'Filter the changes');
  var project = labelled(form, 'changes-project', 'Project');
  var kind = labelled(form, 'changes-kind', 'Kind');
  var count = document.createElement('p');
  count.id = 'changes-count';
  count.setAttribute('role', 'status');
  count.setAttribute('aria-live', 'polite');
  [[project, counted('project')], [kind, counted('kind')]].forEach(
    function (p) {
      option(p[0], '', 'any');
      Object.keys(p[1]).sort(names.compare).forEach(function (v) {
        option(p[0], v, v + ' (' + p[1][v] + ')');
      });
    });
  function apply() {
    var shown = 0;
    days.forEach(function (d) {
      var any = 0;
      d.items.forEach(function (e) {
        var keep = (!project.value || e.project === project.value) &&
          (!kind.value || e.kind === kind.value);
        e.li.hidden = !keep;
        if (keep) any++;
      });
      d.h.hidden = d.list.hidden = any === 0;
      shown += any;
    });
    count.textContent = shown + ' of ' + entries.length +
      (entries.length === 1 ? ' change' : ' changes') + ' shown';
  }
  project.addEventListener('change', apply);
  kind.addEventListener('change', apply);
  form.addEventListener('submit', function (ev) { ev.preventDefault(); });
  days[0].h.parentNode.insertBefore(form, days[0].h);
  form.parentNode.insertBefore(count, days[0].h);
  apply();
}());
